// The per-request context: the caller's credential, an upstream client for it, and the request's
// own lookups. Pothos keeps each request's DataLoaders on this object.
import type { TokenScope } from './config';
import { missingCredential } from './errors';
import type { SubscriberLink } from './live/backlog';
import type { EndpointWrite } from './live/endpoint-events';
import type { StreamItem } from './live/stream';
import type { LiveEvents } from './live/subscriptions';
import { EndpointLookup } from './loaders/endpoint-lookup';
import { ListedLookup } from './loaders/listed-lookup';
import { Listings } from './loaders/listings';
import { TunnelLookup } from './loaders/tunnel-lookup';
import {
  type CallScope,
  NgrokClient,
  newScope,
  RESERVED_ADDRESSES,
  RESERVED_DOMAINS,
  type ReadCache,
  type ReservedAddress,
  type ReservedDomain,
  TUNNEL_SESSIONS,
  type TunnelSession,
  type UpstreamTransport,
} from './upstream';

/** Who is calling and with which ngrok credential (gateway/credentials.ts reads it from the request). */
export interface Credential {
  readonly apiKey: string;
  readonly scopes: readonly TokenScope[];
}

export interface Context {
  /** This operation's deadline and its request's tally, carried by every upstream call it makes. */
  readonly upstreamScope: CallScope;
  /** The upstream client for this request's credential; its calls refuse when there is none. */
  readonly client: NgrokClient;
  readonly tunnels: TunnelLookup;
  readonly endpoints: EndpointLookup;
  /** The account graph: agents (tunnel sessions), reserved domains and reserved addresses. */
  readonly tunnelSessions: ListedLookup<TunnelSession>;
  readonly reservedDomains: ListedLookup<ReservedDomain>;
  readonly reservedAddresses: ListedLookup<ReservedAddress>;
  readonly scopes: readonly TokenScope[];
  readonly authenticated: boolean;
  /** This credential's live tunnel events (Subscription.tunnelEvents); refuses without a credential. */
  readonly tunnelEvents: (includeCurrent: boolean) => AsyncIterable<StreamItem>;
  /** This credential's live endpoint events (Subscription.endpointEvents); refuses without a credential. */
  readonly endpointEvents: (includeCurrent: boolean) => AsyncIterable<StreamItem>;
  /** Announces an endpoint write to the credential's endpointEvents subscribers on every replica. */
  readonly endpointWritten: (write: EndpointWrite) => Promise<void>;
}

export function createContext(
  transport: UpstreamTransport,
  credential: Credential | null,
  cache?: ReadCache,
  live?: LiveEvents,
  upstreamScope: CallScope = newScope(),
  /** The transport of a subscription: what it holds unsent counts against the subscriber's cap. */
  link?: SubscriberLink,
): Context {
  const client = new NgrokClient(transport.scoped(upstreamScope), credential?.apiKey ?? null, cache);
  // One set of lists in flight for every lookup: references wait for any list of the operation.
  const listings = new Listings();
  return {
    upstreamScope,
    client,
    tunnels: new TunnelLookup(client, listings),
    endpoints: new EndpointLookup(client, listings),
    tunnelSessions: new ListedLookup(client, TUNNEL_SESSIONS, listings),
    reservedDomains: new ListedLookup(client, RESERVED_DOMAINS, listings),
    reservedAddresses: new ListedLookup(client, RESERVED_ADDRESSES, listings),
    scopes: credential?.scopes ?? [],
    authenticated: credential !== null,
    tunnelEvents: (includeCurrent) => {
      if (credential === null) throw missingCredential();
      if (!live) throw new Error('live events are not set up for this gateway');
      return live.subscribe(client.credential, 'tunnels', includeCurrent, link);
    },
    endpointEvents: (includeCurrent) => {
      if (credential === null) throw missingCredential();
      if (!live) throw new Error('live events are not set up for this gateway');
      return live.subscribe(client.credential, 'endpoints', includeCurrent, link);
    },
    endpointWritten: async (write) => {
      if (credential !== null) await live?.endpointWritten(client.credential, write);
    },
  };
}
