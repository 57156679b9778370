// The per-request context: the caller's credential, an upstream client for it, and the request's
// own lookups. Pothos keeps each request's DataLoaders on this object.
import type { TokenScope } from './config';
import type { Credential } from './gateway/credentials';
import { TunnelLookup } from './tunnel-lookup';
import { NgrokClient, type ReadCache, type UpstreamTransport } from './upstream';

export interface Context {
  /** The upstream client for this request's credential; its calls refuse when there is none. */
  readonly client: NgrokClient;
  readonly tunnels: TunnelLookup;
  readonly scopes: readonly TokenScope[];
  readonly authenticated: boolean;
}

export function createContext(
  transport: UpstreamTransport,
  credential: Credential | null,
  cache?: ReadCache,
): Context {
  const client = new NgrokClient(transport, credential?.apiKey ?? null, cache);
  return {
    client,
    tunnels: new TunnelLookup(client),
    scopes: credential?.scopes ?? [],
    authenticated: credential !== null,
  };
}
