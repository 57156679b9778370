// Live events for the whole cluster when REDIS_URL is set: the poll lease, the snapshot and the
// fan-out come from the gateway's shared state (Redis, per process while it is down). Without
// Redis nothing is given and LiveEvents keeps all of it in this process.
import type { PubSubEventTarget } from 'graphql-yoga';
import type { LiveConfig } from '../config';
import type { SharedState } from '../shared-state';
import { PubSubFeed, type Topics } from './feed';
import { ClusterLease } from './lease';
import { SharedSnapshotStore, snapshotTtlMs } from './shared-snapshots';
import type { LiveDeps } from './subscriptions';

export function clusterLiveDeps(
  shared: Pick<SharedState, 'events' | 'leases' | 'snapshots'>,
  live: Pick<LiveConfig, 'leaseTtlMs'>,
): Pick<LiveDeps, 'feed' | 'store' | 'lease'> {
  const events = shared.events;
  if (events === undefined) return {};
  return {
    // The shared target carries yoga's CustomEvents as they are; only its declared event type differs.
    feed: new PubSubFeed(events as unknown as PubSubEventTarget<Topics>, (topic) => events.subscribed(topic)),
    store: new SharedSnapshotStore(shared.snapshots, snapshotTtlMs(live.leaseTtlMs)),
    lease: new ClusterLease(shared.leases, live.leaseTtlMs),
  };
}
