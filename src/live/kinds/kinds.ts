// The kinds observed live, as one table: which list a poller walks for each, the feed topic its
// changes go to, and how two observations of it differ (the events). Reserved domains and addresses
// have no event subscription: only live queries read them, so their observations carry no events.
// Everything else in live/ is the same for every kind.

import type { Resource } from '../../resources';
import {
  ENDPOINT,
  type Endpoint,
  RESERVED_ADDRESS,
  RESERVED_DOMAIN,
  TUNNEL,
  TUNNEL_SESSION,
  type Tunnel,
  type TunnelSession,
} from '../../resources';
import type { NgrokClient } from '../../upstream';
import type { Listed, Snapshot } from '../observation/snapshots/snapshot';
import { type EndpointEventPayload, endpointChanges, endpointEvent } from './endpoint-events';
import { type PresenceKind, presenceChanges } from './presence-events';
import { type TunnelEventPayload, tunnelEvent } from './tunnel-events';
import { type TunnelSessionEventPayload, tunnelSessionEvent } from './tunnel-session-events';

/** The kinds observed live, in the order a turn walks them. */
const OBSERVED = [TUNNEL, ENDPOINT, TUNNEL_SESSION, RESERVED_DOMAIN, RESERVED_ADDRESS] as const;

/** A list the poller walks, named as the upstream names it (its descriptor's path). */
export type LiveKind = (typeof OBSERVED)[number]['path'][0];
/** In the order a turn walks them. */
export const LIVE_KINDS: readonly LiveKind[] = OBSERVED.map((resource) => liveKindOf(resource));

/** The live kind of `resource` when it is observed, else undefined (a live query cannot read it). */
export const observedKindOf = (resource: Resource): LiveKind | undefined =>
  (OBSERVED as readonly Resource[]).includes(resource) ? (resource.path[0] as LiveKind) : undefined;

/** The live kind of an observed resource: its list's name. */
export function liveKindOf(resource: (typeof OBSERVED)[number]): LiveKind {
  return resource.path[0];
}

export type LiveEvent = TunnelEventPayload | EndpointEventPayload | TunnelSessionEventPayload;

/** The feed topic of each kind's changes, named as its subscription field is (`…Changes` without one). */
export type Topic =
  | 'tunnelEvents'
  | 'endpointEvents'
  | 'tunnelSessionEvents'
  | 'reservedDomainChanges'
  | 'reservedAddressChanges';

/** One page of a list, newest first; `next` false on its last page. */
interface WalkPage<T extends Listed> {
  readonly items: readonly T[];
  readonly next: boolean;
}

export interface KindRules<T extends Listed, E extends LiveEvent> {
  readonly kind: LiveKind;
  /** Its descriptor: what a live query's observation holds the items of. */
  readonly resource: Resource<T>;
  /** The feed topic of this kind's changes (and of the error that ends its streams). */
  readonly topic: Topic;
  /** One page of the poller's walk (limit 100, before `beforeId`), claimed as a poll call. */
  page(client: NgrokClient, beforeId: string | undefined): Promise<WalkPage<T>>;
  changes(previous: Snapshot<T>, next: Snapshot<T>): E[];
  /** An item as an ONLINE event: what an includeCurrent subscriber starts from (delivery/events/current-events.ts). */
  online(item: T, observedAt: string): E;
}

const PAGE_LIMIT = 100;

/** An observed kind: its descriptor (a Resource of its items), whose list the poller walks. */
type Observed<T extends Listed> = (typeof OBSERVED)[number] & Resource<T>;

/** A kind's rules from its descriptor, its event maker and its diff. */
function rulesOf<T extends Listed, E extends LiveEvent>(
  resource: Observed<T>,
  topic: KindRules<T, E>['topic'],
  online: (item: T, observedAt: string) => E,
  changes: KindRules<T, E>['changes'],
): KindRules<T, E> {
  return {
    kind: liveKindOf(resource),
    resource,
    topic,
    page: async (client, beforeId) => {
      const page = await client.listItems(resource, { limit: PAGE_LIMIT, beforeId, origin: 'poll' });
      return { items: page.items, next: page.nextPageUri !== null };
    },
    changes,
    online,
  };
}

/** The rules of a list whose items only come and go (presence-events.ts). */
const presenceRules = <T extends Listed, E extends LiveEvent>(
  resource: Observed<T>,
  topic: KindRules<T, E>['topic'],
  event: (kind: PresenceKind, item: T, observedAt: string) => E,
): KindRules<T, E> =>
  rulesOf(
    resource,
    topic,
    (item, at) => event('ONLINE', item, at),
    (previous, next) => presenceChanges(previous, next, event),
  );

const tunnels = presenceRules<Tunnel, TunnelEventPayload>(TUNNEL, 'tunnelEvents', tunnelEvent);

const endpoints = rulesOf<Endpoint, EndpointEventPayload>(
  ENDPOINT,
  'endpointEvents',
  (endpoint, at) => endpointEvent('ONLINE', endpoint, at),
  endpointChanges,
);

const tunnelSessions = presenceRules<TunnelSession, TunnelSessionEventPayload>(
  TUNNEL_SESSION,
  'tunnelSessionEvents',
  tunnelSessionEvent,
);

/** The rules of a kind only live queries read: its observations are noticed, with no events. */
const observedRules = <T extends Listed>(resource: Observed<T>, topic: Topic): KindRules<T, never> =>
  rulesOf<T, never>(
    resource,
    topic,
    () => {
      throw new Error(`${resource.noun}s have no events`);
    },
    () => [],
  );

/** The rules of each kind; live code past this table treats items and events as opaque. */
export const KINDS = Object.fromEntries(
  [
    tunnels,
    endpoints,
    tunnelSessions,
    observedRules(RESERVED_DOMAIN, 'reservedDomainChanges'),
    observedRules(RESERVED_ADDRESS, 'reservedAddressChanges'),
  ].map((rules) => [rules.kind, rules as unknown as KindRules<Listed, LiveEvent>]),
) as Readonly<Record<LiveKind, KindRules<Listed, LiveEvent>>>;
