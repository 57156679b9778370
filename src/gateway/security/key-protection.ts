// The start-up line that says what protects a gateway lending its server-held key without tokens.
import type { Config } from '../../config';
import { hostCheck } from './hosts';
import { allowedOrigins, holdsRealKey, type OriginContext } from './origins';

/**
 * One start-up line saying what protects a gateway that lends its key without tokens, or undefined
 * when tokens (or the caller's own key) protect it.
 */
export function keyProtection(
  config: Pick<Config, 'access' | 'server' | 'upstream'>,
  context: OriginContext = {},
): string | undefined {
  if (!holdsRealKey(config, context) || config.access.gatewayTokens.length > 0) return undefined;
  const hosts = hostCheck(config)
    ? `Host names ${['localhost', '127.0.0.1', '[::1]', ...(config.access.allowedHosts ?? [])].join(', ')}`
    : 'any Host name (ALLOWED_HOSTS=*)';
  const origins = allowedOrigins(config, context);
  const browsers = origins.length === 0 ? 'none (CORS_ORIGINS unset)' : origins.join(', ');
  // A page may open a WebSocket to any address: the line says the upgrade is checked too (../transports/websocket.ts).
  const checked = `${hostCheck(config) ? 'Host and Origin' : 'Origin'} checked on every HTTP request and WebSocket upgrade`;
  return `Security: NGROK_API_KEY is lent without GATEWAY_TOKENS, protected by: this machine only (HOST=${config.server.host}); ${hosts}; browser origins: its own pages, others ${browsers}; ${checked}.`;
}
