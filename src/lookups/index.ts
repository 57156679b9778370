// The lookups of one operation (or one live event), one per kind: each owns the kind's DataLoader and
// what the operation's lists and writes showed of it. They share one set of lists in flight, so a
// reference waits for any list of the operation that may already hold it.
import {
  type NgrokClient,
  RESERVED_ADDRESSES,
  RESERVED_DOMAINS,
  type ReservedAddress,
  type ReservedDomain,
  TUNNEL_SESSIONS,
  type TunnelSession,
} from '../upstream';
import { BackendModuleLookup } from './backend-module-lookup';
import { EndpointLookup } from './endpoint-lookup';
import { ListedLookup } from './listed-lookup';
import { Listings } from './listings';
import { TunnelLookup } from './tunnel-lookup';

export type { LoadedBackendModule } from './backend-module-lookup';
export type { Slice } from './forward-pages';
export type { ListedLookup };

export interface Lookups {
  readonly tunnels: TunnelLookup;
  readonly endpoints: EndpointLookup;
  /** The account graph: agents (tunnel sessions), reserved domains and reserved addresses. */
  readonly tunnelSessions: ListedLookup<TunnelSession>;
  readonly reservedDomains: ListedLookup<ReservedDomain>;
  readonly reservedAddresses: ListedLookup<ReservedAddress>;
  readonly backendModules: BackendModuleLookup;
}

/** One operation's (or one live event's) lookups of every kind, reading through `client`. */
export function lookupsOf(client: NgrokClient): Lookups {
  const listings = new Listings();
  return {
    tunnels: new TunnelLookup(client, listings),
    endpoints: new EndpointLookup(client, listings),
    tunnelSessions: new ListedLookup(client, TUNNEL_SESSIONS, listings),
    reservedDomains: new ListedLookup(client, RESERVED_DOMAINS, listings),
    reservedAddresses: new ListedLookup(client, RESERVED_ADDRESSES, listings),
    backendModules: new BackendModuleLookup(client),
  };
}
