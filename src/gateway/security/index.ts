// What protects the gateway from browsers and hostile clients, assembled for app.ts: who is calling
// (credentials.ts) and what they may run (access-control.ts), the Host and Origin checks, CORS, the
// request body cap, batching bounds, CSRF prevention, the refusal headers (401 challenge), and no
// field suggestions in production.
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import type { Config } from '../../config';
import { useBodyLimit } from './body-limit';
import { useCsrfPrevention } from './csrf';
import { hostGuard } from './hosts';
import { corsOption, type OriginContext, originGuard } from './origins';
import type { RequestGuard } from './refusal';
import { useRefusalHeaders } from './refusal-headers';

export { useAccessControl } from './access-control';
export { callerOf } from './credentials';
export { graphiqlForAllowedHosts } from './hosts';
export { keyProtection } from './key-protection';
export { useRequestGuards } from './request-guards';

type SecurityConfig = Pick<Config, 'access' | 'server' | 'limits' | 'upstream'>;

/** The yoga options that bound a request before it is parsed. */
export function securityOptions(config: SecurityConfig, context: OriginContext = {}) {
  return {
    cors: corsOption(config, context),
    // Enforced by useBodyLimit (securityPlugins), which spares bodies with a Content-Length yoga's stream.
    maxRequestBodySize: false,
    batching: config.limits.maxBatch > 0 ? { limit: config.limits.maxBatch } : false,
  } satisfies Partial<YogaServerOptions<object, object>>;
}

/** The Host and Origin checks, in order, for HTTP requests and WebSocket upgrades (../transports/upgrade-guards.ts) alike. */
export function requestGuards(config: SecurityConfig, context: OriginContext = {}): RequestGuard[] {
  return [hostGuard(config), originGuard(config, context)].filter((g) => g !== undefined);
}

export function securityPlugins(config: SecurityConfig): Plugin[] {
  const plugins: Plugin[] = [
    useCsrfPrevention(),
    useRefusalHeaders(),
    useBodyLimit(config.limits.maxBodyBytes),
  ];
  if (config.server.nodeEnv === 'production') plugins.push(blockFieldSuggestionsPlugin({ mask: '' }));
  return plugins;
}
