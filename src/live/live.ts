// Live, the gateway's live side put together (app.ts makes one): observation (observation/: one
// poller per account, its snapshots and notices shared through the shared state, the writes through
// the gateway announced at once) and delivery (delivery/: the event subscriptions and the live
// queries, their limits and streams). Each opens a need of the kinds it reads; the poller walks
// what is needed.
import type { PubSubEventTarget } from 'graphql-yoga';
import { type Logger, silentLogger } from '../log';
import type { Observed } from '../lookups/observation-lookups';
import type { UpstreamKey } from '../upstream';
import type { SubscriberLink } from './delivery/events/backlog';
import type { StreamItem } from './delivery/events/event-stream';
import type { LiveQueryRequest } from './delivery/queries/query-group';
import { createQueryMetrics } from './delivery/queries/query-metrics';
import type { LiveQueryItem } from './delivery/queries/query-stream';
import { Subscriptions } from './delivery/subscriptions';
import type { LiveKind } from './kinds/kinds';
import type { LiveDeps, LiveSettings } from './live-setup';
import { createLiveMetrics, type LiveMetrics } from './metrics';
import { AccountObservers } from './observation/account-observers';
import { PubSubFeed, type Topics } from './observation/feed';
import { Observations } from './observation/observations';
import { Interest } from './observation/replicas/interest';
import { StoredLease } from './observation/replicas/lease';
import { SharedSnapshots, snapshotTtlMs } from './observation/snapshots/shared-snapshots';
import { isObserved } from './observation/snapshots/snapshot';
import { WriteAnnouncements } from './observation/writes';

export class Live {
  private readonly observers: AccountObservers;
  private readonly subscriptions: Subscriptions;
  private readonly metrics: LiveMetrics;
  private readonly observations: Observations;
  /** Writes through the gateway, announced at once to the account's endpoint subscribers. */
  readonly writes: WriteAnnouncements;

  constructor(settings: LiveSettings, deps: LiveDeps) {
    const { events, snapshots: store, leases } = deps.shared;
    // The shared target carries yoga's CustomEvents as they are; only its declared event type differs.
    const feed = events
      ? new PubSubFeed(events as unknown as PubSubEventTarget<Topics>, (topic) => events.subscribed(topic))
      : new PubSubFeed();
    const { leaseTtlMs } = settings.live;
    const snapshots = new SharedSnapshots(store, snapshotTtlMs(leaseTtlMs), settings.live.maxSnapshotBytes);
    const logger: Logger = deps.logger ?? silentLogger();
    this.metrics = createLiveMetrics(deps.registry, () => this.subscriptions.heldBytes());
    const { metrics } = this;
    this.observers = new AccountObservers({
      settings,
      deps,
      feed,
      snapshots,
      interest: new Interest(store, leaseTtlMs),
      lease: new StoredLease(leases, leaseTtlMs),
      metrics,
      logger,
    });
    this.observations = new Observations(feed, snapshots);
    this.subscriptions = new Subscriptions({
      settings: settings.live,
      observations: this.observations,
      need: (key, kinds) => this.observers.need(key, kinds),
      metrics,
      queryMetrics: createQueryMetrics(deps.registry),
      logger,
    });
    this.writes = new WriteAnnouncements({ feed, snapshots, logger });
  }

  /** Whether the account of `key` has an observation of every one of `kinds` now. */
  async observed(key: UpstreamKey, kinds: ReadonlySet<LiveKind>): Promise<boolean> {
    const latest = await Promise.all([...kinds].map((kind) => this.observations.latest(kind, key.digest)));
    return latest.every(isObserved);
  }

  /** @internal test seam: open subscriptions, in all or of one credential. */
  count(apiKey?: string): number {
    return this.subscriptions.count(apiKey);
  }

  /** @internal test seam: credentials this process keeps an entry for now (streams, a poller or its idle time). */
  credentials(): number {
    return this.observers.size;
  }

  /** @internal test seam: credentials this process polls now (with Redis: whose lease it holds). */
  pollers(): number {
    return this.observers.polling();
  }

  /**
   * A stream of the credential's events of `kind`; RATE_LIMITED beyond the limits. `link`: the
   * subscriber's transport, dropped when more than LIVE_MAX_SUBSCRIBER_BUFFER_BYTES wait for it.
   */
  subscribe(
    key: UpstreamKey,
    kind: LiveKind,
    includeCurrent: boolean,
    link?: SubscriberLink,
  ): AsyncIterableIterator<StreamItem> {
    return this.subscriptions.events(key, kind, includeCurrent, link);
  }

  /**
   * A live query of the credential (@live): its first result, then a patch each time its evaluation
   * over the account's observation changes; RATE_LIMITED beyond the subscription limits.
   */
  liveQuery(
    key: UpstreamKey,
    request: LiveQueryRequest,
    link?: SubscriberLink,
  ): AsyncIterableIterator<LiveQueryItem> {
    return this.subscriptions.liveQuery(key, request, link);
  }

  /** @internal test seam: groups of live queries open here (identical ones share one evaluation). */
  liveQueryGroups(): number {
    return this.subscriptions.queryGroups();
  }

  /**
   * What `event`'s joins are resolved with: `make`'s lookups, made once per observation and
   * `selection` for every subscriber of the credential here (lookups/observation-lookups.ts), or
   * unshared when it is not observed here. `make` hands their calls, as each starts, to the function
   * it is given (the metric by `list`).
   */
  joinsOf<T>(
    key: UpstreamKey,
    list: LiveKind,
    event: Observed,
    selection: string,
    make: (counted: (calls: number) => void) => T,
  ): T {
    const made = () => make((n) => this.metrics.joinCalls(list, n));
    return this.observers.lookupsOf(key.digest)?.of(event, selection, made) ?? made();
  }

  /** Completes every open stream and stops every poller (graceful shutdown). */
  async close(): Promise<void> {
    const ended = this.observers.close();
    this.subscriptions.close();
    await ended;
  }
}
