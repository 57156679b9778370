// The per-request context: the caller's credential, an upstream client for it, and the request's
// own lookups. Pothos keeps each request's DataLoaders on this object.
import type { TokenScope } from './config';
import { GatewayError } from './errors';
import { TunnelLookup } from './loaders';
import { NgrokClient, type UpstreamTransport } from './upstream';
import type { Credential } from './gateway/credentials';

export interface Context {
  /** The upstream client for this request's credential; throws UNAUTHENTICATED when there is none. */
  readonly client: NgrokClient;
  readonly tunnels: TunnelLookup;
  readonly scopes: readonly TokenScope[];
  readonly authenticated: boolean;
}

export function createContext(transport: UpstreamTransport, credential: Credential | null): Context {
  if (!credential) {
    const refuse = (): never => {
      throw new GatewayError('UNAUTHENTICATED', 'Send "Authorization: Bearer <token>".', { httpStatus: 401 });
    };
    return {
      get client() {
        return refuse();
      },
      get tunnels() {
        return refuse();
      },
      scopes: [],
      authenticated: false,
    };
  }
  const client = new NgrokClient(transport, credential.apiKey);
  return { client, tunnels: new TunnelLookup(client), scopes: credential.scopes, authenticated: true };
}
