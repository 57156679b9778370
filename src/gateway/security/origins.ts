// Which browser origins may use the gateway. Where the gateway lends its own ngrok key, a page on
// another site must be listed in CORS_ORIGINS, whatever NODE_ENV says: its requests are refused
// outright, not only left without CORS headers. Elsewhere, CORS alone decides, as before.
import type { CORSOptions, YogaServerOptions } from 'graphql-yoga';
import type { Config } from '../../config';
import type { Refusal, RequestGuard } from './refusal';

export type OriginConfig = Pick<Config, 'access' | 'server' | 'upstream'>;

/** Where the upstream is the embedded stand-in, nothing real is at stake. */
export interface OriginContext {
  readonly standIn?: boolean;
}

/** True when requests spend the gateway's own key (not the stand-in's, not the caller's). */
export const holdsRealKey = (config: OriginConfig, context: OriginContext = {}): boolean =>
  config.upstream.apiKey !== undefined && context.standIn !== true;

/** The origins CORS lets in: the listed ones; else any in development unless a real key is held. */
export function allowedOrigins(config: OriginConfig, context: OriginContext = {}): readonly string[] {
  if (config.access.corsOrigins !== undefined) return config.access.corsOrigins;
  return config.server.nodeEnv === 'development' && !holdsRealKey(config, context) ? ['*'] : [];
}

/** True when the Origin names the gateway itself (GraphiQL served by it): the scheme may differ behind TLS. */
function sameOrigin(origin: string, host: string | null): boolean {
  try {
    return host !== null && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** A test of the Origin header against the allowed origins. */
function originAllowed(allowed: readonly string[]) {
  const any = allowed.includes('*');
  return (origin: string): boolean => any || allowed.includes(origin);
}

/** yoga's cors option: headers only for an allowed Origin; bearer tokens, so never credentials. */
export function corsOption(
  config: OriginConfig,
  context: OriginContext = {},
): YogaServerOptions<object, object>['cors'] {
  const allowed = allowedOrigins(config, context);
  if (allowed.length === 0) return false;
  const ok = originAllowed(allowed);
  return (request: Request): CORSOptions => {
    const origin = request.headers.get('origin');
    if (origin === null || !ok(origin)) return false as unknown as CORSOptions;
    // '*' makes yoga echo the request's Origin with "Vary: Origin".
    return { origin: ['*'], methods: ['GET', 'POST'], credentials: false, maxAge: 600 };
  };
}

const ORIGIN_NOT_ALLOWED: Refusal = {
  status: 403,
  code: 'ORIGIN_NOT_ALLOWED',
  message: 'Requests from this origin are not allowed (see CORS_ORIGINS).',
  headers: { vary: 'Origin' },
};

/** What a browser says of where a request comes from (Fetch Metadata): from another site, or a sibling one. */
const FROM_ANOTHER_SITE = new Set(['cross-site', 'same-site']);

const CROSS_SITE_NOT_ALLOWED: Refusal = {
  status: 403,
  code: 'ORIGIN_NOT_ALLOWED',
  message: 'Requests a browser sends from another site are not allowed (see CORS_ORIGINS).',
  headers: { vary: 'Origin, Sec-Fetch-Site' },
};

/**
 * Where a real key is held: a request (or WebSocket upgrade) from a browser page on another,
 * unlisted origin is refused before it is parsed (a preflight already gets no CORS headers). So is
 * one the browser marks as coming from another site (Sec-Fetch-Site) without an allowed Origin: an
 * `<img src>` or a link on any page sends no Origin. Requests without these headers (servers, curl)
 * and from the gateway's own pages pass.
 */
export function originGuard(config: OriginConfig, context: OriginContext = {}): RequestGuard | undefined {
  if (!holdsRealKey(config, context)) return undefined;
  const ok = originAllowed(allowedOrigins(config, context));
  return (headers) => {
    const origin = headers.get('origin');
    if (origin !== null)
      return ok(origin) || sameOrigin(origin, headers.get('host')) ? undefined : ORIGIN_NOT_ALLOWED;
    const site = headers.get('sec-fetch-site');
    return site !== null && FROM_ANOTHER_SITE.has(site.toLowerCase()) ? CROSS_SITE_NOT_ALLOWED : undefined;
  };
}
