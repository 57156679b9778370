// What protects the gateway from browsers and hostile clients at the HTTP level: CSRF prevention,
// CORS, the request body cap, batching bounds, and no field suggestions in production.
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { CORSOptions, Plugin, YogaServerOptions } from 'graphql-yoga';
import type { Config } from '../config';

type SecurityConfig = Pick<Config, 'access' | 'server' | 'limits'>;

/**
 * Headers that mark a request as sent by a script (a browser preflights them), so a form or an
 * <img> on another site cannot run an operation. JSON POSTs need none of them.
 */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'graphql-require-preflight', 'apollo-require-preflight'];

/** The origins CORS lets in: the configured ones, any in development, none otherwise. */
export function allowedOrigins(config: SecurityConfig): readonly string[] {
  return config.access.corsOrigins ?? (config.server.nodeEnv === 'development' ? ['*'] : []);
}

/** yoga's cors option: headers only for an allowed Origin; bearer tokens, so never credentials. */
export function corsOption(config: SecurityConfig): YogaServerOptions<object, object>['cors'] {
  const allowed = allowedOrigins(config);
  if (allowed.length === 0) return false;
  const any = allowed.includes('*');
  return (request: Request): CORSOptions => {
    const origin = request.headers.get('origin');
    if (origin === null || !(any || allowed.includes(origin))) return false as unknown as CORSOptions;
    // '*' makes yoga echo the request's Origin with "Vary: Origin".
    return { origin: ['*'], methods: ['GET', 'POST'], credentials: false, maxAge: 600 };
  };
}

/** The yoga options that bound a request before it is parsed. */
export function securityOptions(config: SecurityConfig) {
  return {
    cors: corsOption(config),
    maxRequestBodySize: config.limits.maxBodyBytes,
    batching: config.limits.maxBatch > 0 ? { limit: config.limits.maxBatch } : false,
  } satisfies Partial<YogaServerOptions<object, object>>;
}

/** Refusals that may come before the body is read: too large, CSRF (or scope), unsupported type. */
const UNREAD_BODY_STATUSES = new Set([403, 413, 415]);

/**
 * A request refused before its body was read leaves the rest of that body on the connection, where
 * it would stall the client's next request: such answers close the connection instead.
 */
const closeAfterRefusal: Plugin = {
  onResponse({ request, response }) {
    if (request.method === 'POST' && UNREAD_BODY_STATUSES.has(response.status)) {
      response.headers.set('connection', 'close');
    }
  },
};

export function securityPlugins(config: SecurityConfig): Plugin[] {
  const plugins: Plugin[] = [useCSRFPrevention({ requestHeaders: CSRF_HEADERS }), closeAfterRefusal];
  if (config.server.nodeEnv === 'production') plugins.push(blockFieldSuggestionsPlugin({ mask: '' }));
  return plugins;
}
