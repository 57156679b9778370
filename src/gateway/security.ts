// What protects the gateway from browsers and hostile clients at the HTTP level: the Host and
// Origin checks (which WebSocket upgrades pass too: ./upgrade-guards.ts), CSRF prevention, CORS, the
// request body cap, batching bounds, the 401 challenge, and no field suggestions in production.
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError } from 'graphql';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import type { Config } from '../config';
import { useBodyLimit } from './body-limit';
import { hostCheck, hostGuard } from './hosts';
import { allowedOrigins, corsOption, holdsRealKey, type OriginContext, originGuard } from './origins';
import type { RequestGuard } from './refusal';

type SecurityConfig = Pick<Config, 'access' | 'server' | 'limits' | 'upstream'>;

/**
 * Headers that mark a request as sent by a script (a browser preflights them), so a form on another
 * site cannot run an operation. JSON POSTs and GET queries need none of them.
 */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'graphql-require-preflight', 'apollo-require-preflight'];

/** The realm of the Bearer challenge every 401 carries (RFC 6750). */
export const AUTH_CHALLENGE = 'Bearer realm="ngrok-graphql-gateway"';

/** The yoga options that bound a request before it is parsed. */
export function securityOptions(config: SecurityConfig, context: OriginContext = {}) {
  return {
    cors: corsOption(config, context),
    // Enforced by useBodyLimit (securityPlugins), which spares bodies with a Content-Length yoga's stream.
    maxRequestBodySize: false,
    batching: config.limits.maxBatch > 0 ? { limit: config.limits.maxBatch } : false,
  } satisfies Partial<YogaServerOptions<object, object>>;
}

/**
 * Form and text/plain POSTs (which a page on any site can send without a preflight) need a CSRF
 * header. GET runs queries only (a mutation over GET is 405) and clients authenticate with a bearer
 * header, not cookies, so a GET needs none: urql's and graphql-request's defaults work.
 */
function csrfPrevention(): Plugin {
  const onRequestParse = useCSRFPrevention({ requestHeaders: CSRF_HEADERS }).onRequestParse;
  return {
    onRequestParse(payload) {
      if (payload.request.method === 'GET') return;
      try {
        return onRequestParse?.(payload);
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        throw new GraphQLError(error.message, {
          extensions: { ...error.extensions, code: 'CSRF_HEADER_REQUIRED' },
        });
      }
    },
  };
}

/** Refusals that may come before the body is read: too large, CSRF (or scope), unsupported type. */
const UNREAD_BODY_STATUSES = new Set([403, 413, 415]);

/**
 * A request refused before its body was read leaves the rest of that body on the connection, where
 * it would stall the client's next request: such answers close the connection instead. A 401 says
 * how to authenticate.
 */
const responseHeaders: Plugin = {
  onResponse({ request, response }) {
    if (request.method === 'POST' && UNREAD_BODY_STATUSES.has(response.status)) {
      response.headers.set('connection', 'close');
    }
    if (response.status === 401) response.headers.set('www-authenticate', AUTH_CHALLENGE);
  },
};

/** The Host and Origin checks, in order, for HTTP requests and WebSocket upgrades alike. */
export function requestGuards(config: SecurityConfig, context: OriginContext = {}): RequestGuard[] {
  return [hostGuard(config), originGuard(config, context)].filter((g) => g !== undefined);
}

export function securityPlugins(config: SecurityConfig): Plugin[] {
  const plugins: Plugin[] = [csrfPrevention(), responseHeaders, useBodyLimit(config.limits.maxBodyBytes)];
  if (config.server.nodeEnv === 'production') plugins.push(blockFieldSuggestionsPlugin({ mask: '' }));
  return plugins;
}

/**
 * One start-up line saying what protects a gateway that lends its key without tokens, or undefined
 * when tokens (or the caller's own key) protect it.
 */
export function keyProtection(config: SecurityConfig, context: OriginContext = {}): string | undefined {
  if (!holdsRealKey(config, context) || config.access.gatewayTokens.length > 0) return undefined;
  const hosts = hostCheck(config)
    ? `Host names ${['localhost', '127.0.0.1', '[::1]', ...(config.access.allowedHosts ?? [])].join(', ')}`
    : 'any Host name (ALLOWED_HOSTS=*)';
  const origins = allowedOrigins(config, context);
  const browsers = origins.length === 0 ? 'none (CORS_ORIGINS unset)' : origins.join(', ');
  // A page may open a WebSocket to any address: the line says the upgrade is checked too (websocket.ts).
  const checked = `${hostCheck(config) ? 'Host and Origin' : 'Origin'} checked on every HTTP request and WebSocket upgrade`;
  return `Security: NGROK_API_KEY is lent without GATEWAY_TOKENS, protected by: this machine only (HOST=${config.server.host}); ${hosts}; browser origins: its own pages, others ${browsers}; ${checked}.`;
}
