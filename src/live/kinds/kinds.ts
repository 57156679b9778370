// The kinds of live events, as one table: which list a poller walks for each, the feed topic its
// changes go to, and how two observations of it differ. Everything else in live/ is the same for
// every kind.
import {
  ENDPOINT,
  type Endpoint,
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

/** A list the poller walks, named as the upstream names it. */
export type LiveKind = 'tunnels' | 'endpoints' | 'tunnel_sessions';
/** In the order a turn walks them. */
export const LIVE_KINDS: readonly LiveKind[] = ['tunnels', 'endpoints', 'tunnel_sessions'];

export type LiveEvent = TunnelEventPayload | EndpointEventPayload | TunnelSessionEventPayload;

/** The feed topic of each kind's changes, named as its subscription field is. */
export type Topic = 'tunnelEvents' | 'endpointEvents' | 'tunnelSessionEvents';

/** One page of a list, newest first; `next` false on its last page. */
interface WalkPage<T extends Listed> {
  readonly items: readonly T[];
  readonly next: boolean;
}

export interface KindRules<T extends Listed, E extends LiveEvent> {
  readonly kind: LiveKind;
  /** The feed topic of this kind's changes (and of the error that ends its streams). */
  readonly topic: Topic;
  /** One page of the poller's walk (limit 100, before `beforeId`), claimed as a poll call. */
  page(client: NgrokClient, beforeId: string | undefined): Promise<WalkPage<T>>;
  changes(previous: Snapshot<T>, next: Snapshot<T>): E[];
  /** An item as an ONLINE event: what an includeCurrent subscriber starts from (delivery/events/current-events.ts). */
  online(item: T, observedAt: string): E;
}

const PAGE_LIMIT = 100;

/** One page of a list as the upstream client answers it. */
type ListCall<T extends Listed> = (
  client: NgrokClient,
  beforeId: string | undefined,
) => Promise<{ readonly items: readonly T[]; readonly nextPageUri: string | null }>;

/** A kind's rules from its list call, its event maker and its diff. */
function rulesOf<T extends Listed, E extends LiveEvent>(
  kind: LiveKind,
  topic: KindRules<T, E>['topic'],
  list: ListCall<T>,
  online: (item: T, observedAt: string) => E,
  changes: KindRules<T, E>['changes'],
): KindRules<T, E> {
  return {
    kind,
    topic,
    page: async (client, beforeId) => {
      const page = await list(client, beforeId);
      return { items: page.items, next: page.nextPageUri !== null };
    },
    changes,
    online,
  };
}

/** The rules of a list whose items only come and go (presence-events.ts). */
const presenceRules = <T extends Listed, E extends LiveEvent>(
  kind: LiveKind,
  topic: KindRules<T, E>['topic'],
  list: ListCall<T>,
  event: (kind: PresenceKind, item: T, observedAt: string) => E,
): KindRules<T, E> =>
  rulesOf(
    kind,
    topic,
    list,
    (item, at) => event('ONLINE', item, at),
    (previous, next) => presenceChanges(previous, next, event),
  );

const tunnels = presenceRules<Tunnel, TunnelEventPayload>(
  'tunnels',
  'tunnelEvents',
  (client, beforeId) => client.listItems(TUNNEL, { limit: PAGE_LIMIT, beforeId, origin: 'poll' }),
  tunnelEvent,
);

const endpoints = rulesOf<Endpoint, EndpointEventPayload>(
  'endpoints',
  'endpointEvents',
  (client, beforeId) => client.listItems(ENDPOINT, { limit: PAGE_LIMIT, beforeId, origin: 'poll' }),
  (endpoint, at) => endpointEvent('ONLINE', endpoint, at),
  endpointChanges,
);

const tunnelSessions = presenceRules<TunnelSession, TunnelSessionEventPayload>(
  'tunnel_sessions',
  'tunnelSessionEvents',
  (client, beforeId) => client.listItems(TUNNEL_SESSION, { limit: PAGE_LIMIT, beforeId, origin: 'poll' }),
  tunnelSessionEvent,
);

/** The rules of each kind; live code past this table treats items and events as opaque. */
export const KINDS: Readonly<Record<LiveKind, KindRules<Listed, LiveEvent>>> = {
  tunnels: tunnels as unknown as KindRules<Listed, LiveEvent>,
  endpoints: endpoints as unknown as KindRules<Listed, LiveEvent>,
  tunnel_sessions: tunnelSessions as unknown as KindRules<Listed, LiveEvent>,
};
