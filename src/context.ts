// The per-request context: the caller's credential, an upstream client for it, and the request's
// own lookups. Pothos keeps each request's DataLoaders on this object (or on its cache key). A
// subscription's context takes each event's own lookups before the event is resolved (enterEvent).
import { contextCacheSymbol } from '@pothos/core';
import type { TokenScope } from './config';
import { missingCredential } from './errors';
import type { EndpointWrite, LiveEvents, LiveKind, StreamItem, SubscriberLink } from './live';
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
  /**
   * This credential's live events of one list (Subscription.tunnelEvents, endpointEvents,
   * tunnelSessionEvents); refuses without a credential.
   */
  readonly liveEvents: (kind: LiveKind, includeCurrent: boolean) => AsyncIterable<StreamItem>;
  /** Announces an endpoint write to the credential's endpointEvents subscribers on every replica. */
  readonly endpointWritten: (write: EndpointWrite) => Promise<void>;
  /** The lookups a live event's joins are resolved with, shared by the account's subscribers here. */
  readonly eventLookups: (event: object) => EventLookups;
}

/** One live event's lookups (every kind a join may read), and the key Pothos keeps its DataLoaders under. */
export type EventLookups = Pick<
  Context,
  'tunnels' | 'endpoints' | 'tunnelSessions' | 'reservedDomains' | 'reservedAddresses'
> & { readonly [contextCacheSymbol]: object };

/**
 * Points `ctx` at `event`'s own lookups and DataLoaders before the event is resolved: each event of a
 * subscription sees the upstream afresh (no join frozen at the first event, no error cached for the
 * later ones), and the account's subscribers on this replica share one lookup per event. A
 * subscription resolves its events one at a time, so the switch never crosses two of them.
 */
export function enterEvent(ctx: Context, event: object): void {
  Object.assign(ctx, ctx.eventLookups(event));
}

/** One operation's (or one live event's) lookups of every kind, reading through `client`. */
function lookupsOf(client: NgrokClient): Omit<EventLookups, typeof contextCacheSymbol> {
  // One set of lists in flight for every lookup: references wait for any list of the operation.
  const listings = new Listings();
  return {
    tunnels: new TunnelLookup(client, listings),
    endpoints: new EndpointLookup(client, listings),
    tunnelSessions: new ListedLookup(client, TUNNEL_SESSIONS, listings),
    reservedDomains: new ListedLookup(client, RESERVED_DOMAINS, listings),
    reservedAddresses: new ListedLookup(client, RESERVED_ADDRESSES, listings),
  };
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
  return {
    upstreamScope,
    client,
    ...lookupsOf(client),
    scopes: credential?.scopes ?? [],
    authenticated: credential !== null,
    liveEvents: (kind, includeCurrent) => {
      if (credential === null) throw missingCredential();
      if (!live) throw new Error('live events are not set up for this gateway');
      return live.subscribe(client.credential, kind, includeCurrent, link);
    },
    endpointWritten: async (write) => {
      if (credential !== null) await live?.writes.endpointWritten(client.credential, write);
    },
    eventLookups: (event) => {
      const make = (): EventLookups => {
        // No read cache and no request's tally or deadline: the event's lookups outlive any request.
        const shared = new NgrokClient(transport.scoped(newScope()), credential?.apiKey ?? null);
        const lookups = lookupsOf(shared);
        return { ...lookups, [contextCacheSymbol]: lookups };
      };
      return live && credential !== null ? live.joinsOf(client.credential, event, make) : make();
    },
  };
}
