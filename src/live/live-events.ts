// LiveEvents, the registry of live subscriptions (tunnel, endpoint and tunnel session events):
// limits per credential and in all, one poller per credential started by its first subscriber and
// stopped LIVE_IDLE_MS after its last one leaves (it polls only while it holds the credential's
// lease: one replica at a time), and the graceful end of every stream on shutdown. Writes through
// the gateway are announced by the WriteAnnouncements it holds (write-announcements.ts).
import { AsyncResource } from 'node:async_hooks';
import type { PubSubEventTarget } from 'graphql-yoga';
import { GatewayError } from '../errors';
import { type Logger, silentLogger } from '../log';
import { pollShareOf } from '../shared-state';
import { CallLedger, keyDigest, NgrokClient, newScope, type UpstreamKey } from '../upstream';
import type { SubscriberLink } from './fan-out/backlog';
import { currentEvents } from './fan-out/current-events';
import { EventJoins, type Observed } from './fan-out/event-joins';
import { type Channel, EventStream, type StreamItem } from './fan-out/event-stream';
import { type LiveFeed, PubSubFeed, type Topics } from './fan-out/feed';
import { KINDS, LIVE_KINDS, type LiveKind } from './kinds/kinds';
import type { CredentialEntry, LiveDeps, LiveSettings } from './live-setup';
import { createLiveMetrics, type LiveMetrics } from './metrics';
import { Poller } from './polling/poller';
import { Interest } from './replicas/interest';
import { type PollLease, StoredLease } from './replicas/lease';
import { SharedSnapshots, snapshotTtlMs } from './snapshots/shared-snapshots';
import { WriteAnnouncements } from './write-announcements';

const limited = (message: string) => new GatewayError('RATE_LIMITED', message);

export class LiveEvents {
  private readonly entries = new Map<string, CredentialEntry>();
  private readonly feed: LiveFeed;
  private readonly snapshots: SharedSnapshots;
  private readonly interest: Interest;
  private readonly lease: PollLease;
  private readonly metrics: LiveMetrics;
  private readonly logger: Logger;
  /** Writes through the gateway, announced at once to the account's endpoint subscribers. */
  readonly writes: WriteAnnouncements;
  /** Pollers run outside any request's async context (its deadline and log tally are not theirs). */
  private readonly scope = new AsyncResource('LivePollers');
  private total = 0;
  private closing = false;

  constructor(
    private readonly settings: LiveSettings,
    private readonly deps: LiveDeps,
  ) {
    const { events, snapshots, leases } = deps.shared;
    // The shared target carries yoga's CustomEvents as they are; only its declared event type differs.
    this.feed = events
      ? new PubSubFeed(events as unknown as PubSubEventTarget<Topics>, (topic) => events.subscribed(topic))
      : new PubSubFeed();
    const { leaseTtlMs } = settings.live;
    this.snapshots = new SharedSnapshots(
      snapshots,
      snapshotTtlMs(leaseTtlMs),
      settings.live.maxSnapshotBytes,
    );
    this.interest = new Interest(snapshots, leaseTtlMs);
    this.lease = new StoredLease(leases, leaseTtlMs);
    this.metrics = createLiveMetrics(deps.registry, () => this.heldBytes());
    this.logger = deps.logger ?? silentLogger();
    this.writes = new WriteAnnouncements({ feed: this.feed, snapshots: this.snapshots, logger: this.logger });
  }

  /** @internal test seam: open subscriptions, in all or of one credential. */
  count(apiKey?: string): number {
    return apiKey === undefined ? this.total : (this.entries.get(keyDigest(apiKey))?.streams.size ?? 0);
  }

  /** @internal test seam: credentials this process keeps an entry for now (streams, a poller or its idle time). */
  credentials(): number {
    return this.entries.size;
  }

  /** @internal test seam: credentials this process polls now (with Redis: whose lease it holds). */
  pollers(): number {
    let n = 0;
    for (const entry of this.entries.values()) if (entry.poller?.polling) n += 1;
    return n;
  }

  /** Bytes of events held now for every open subscriber (queued, plus unsent in their transports). */
  heldBytes(): number {
    let bytes = 0;
    for (const entry of this.entries.values())
      for (const stream of entry.streams.keys()) bytes += stream.heldBytes();
    return bytes;
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
    if (this.closing) {
      throw new GatewayError(
        'UPSTREAM_UNAVAILABLE',
        'The gateway is shutting down; subscribe again shortly.',
      );
    }
    const {
      maxSubscriptions: liveMaxSubscriptions,
      maxSubscriptionsPerCredential: liveMaxSubscriptionsPerCredential,
    } = this.settings.live;
    if (this.total >= liveMaxSubscriptions) {
      throw limited(`The gateway holds its maximum of ${liveMaxSubscriptions} subscriptions; retry later.`);
    }
    const entry = this.entryFor(key);
    if (entry.streams.size >= liveMaxSubscriptionsPerCredential) {
      throw limited(
        `At most ${liveMaxSubscriptionsPerCredential} subscriptions per credential; close one to open another.`,
      );
    }
    const stream: EventStream = new EventStream({
      channel: this.channel(kind, entry.digest),
      includeCurrent,
      onEnd: () => this.left(entry, stream),
      onSent: (event) => this.metrics.sent(kind, event.kind),
      capBytes: this.settings.live.maxSubscriberBufferBytes,
      stallMs: this.settings.live.maxSubscriberStallMs,
      link,
      onTooSlow: (cause) => {
        this.metrics.tooSlow(link?.transport ?? 'none', cause);
        this.logger.info(
          { credential: entry.digest.slice(0, 8), transport: link?.transport ?? 'none', cause },
          'live subscriber dropped: it read too slowly',
        );
      },
      onHeld: (bytes) => this.metrics.held(bytes),
    });
    const newKind = ![...entry.streams.values()].includes(kind);
    entry.streams.set(stream, kind);
    this.total += 1;
    this.metrics.subscriptions(kind, 1);
    clearTimeout(entry.idle);
    entry.idle = undefined;
    if (!entry.poller) this.startPoller(entry);
    else if (newKind) entry.poller.nudge(kind);
    return stream;
  }

  /**
   * What `event`'s joins are resolved with: `make`'s lookups, made once per observation and
   * `selection` for every subscriber of the credential here (fan-out/event-joins.ts), or unshared
   * when it has no entry. `make` hands their calls, as each starts, to the function it is given (the
   * metric by `list`).
   */
  joinsOf<T>(
    key: UpstreamKey,
    list: LiveKind,
    event: Observed,
    selection: string,
    make: (counted: (calls: number) => void) => T,
  ): T {
    const entry = this.entries.get(key.digest);
    const made = () => make((n) => this.metrics.joinCalls(list, n));
    return entry ? entry.joins.of(event, selection, made) : made();
  }

  /** One credential's messages of one kind and its current list, as a stream reads them. */
  private channel(kind: LiveKind, digest: string): Channel {
    const rules = KINDS[kind];
    return {
      listen: (listener) => this.feed.listen(rules.topic, digest, listener),
      listening: () => this.feed.listening(rules.topic, digest),
      current: async () => {
        const snapshot = await this.snapshots.observed(kind, digest);
        return snapshot && { version: snapshot.version, events: currentEvents(rules, snapshot) };
      },
    };
  }

  /** Completes every open stream and stops every poller (graceful shutdown). */
  async close(): Promise<void> {
    this.closing = true;
    const ends: Promise<void>[] = [];
    for (const entry of this.entries.values()) {
      for (const stream of [...entry.streams.keys()]) stream.complete();
      clearTimeout(entry.idle);
      entry.poller?.stop();
      ends.push(entry.previous);
    }
    await Promise.all(ends);
  }

  private entryFor(key: UpstreamKey): CredentialEntry {
    const { digest } = key;
    let entry = this.entries.get(digest);
    if (!entry) {
      entry = {
        digest,
        key,
        streams: new Map(),
        joins: new EventJoins(),
        previous: Promise.resolve(),
      };
      this.entries.set(digest, entry);
    }
    return entry;
  }

  private startPoller(entry: CredentialEntry): void {
    const tally = new CallLedger();
    const poller: Poller = new Poller({
      digest: entry.digest,
      // No read cache: every walk must see the upstream as it is now. The scope's tally counts the
      // attempts the poller's own calls send, whatever clients do meanwhile.
      client: new NgrokClient(this.deps.transport.scoped(newScope(tally)), entry.key),
      tally,
      snapshots: this.snapshots,
      interest: this.interest,
      feed: this.feed,
      lease: this.lease,
      // The account's one poll window: the shared budget counts the poller's calls as it claims them.
      budget: {
        perMinute: pollShareOf(this.settings.upstream.rateLimitPerMin, this.settings.live.pollBudgetPerMin),
        wait: (calls) => this.deps.shared.budget.pollWait(entry.digest, calls),
      },
      intervalMs: this.settings.live.pollIntervalMs,
      retries: this.settings.upstream.retries,
      metrics: this.metrics,
      logger: this.logger,
      wanted: () => LIVE_KINDS.filter((kind) => [...entry.streams.values()].includes(kind)),
      onRefused: () => {
        if (entry.poller === poller) entry.poller = undefined;
      },
    });
    entry.poller = poller;
    const after = entry.previous;
    this.scope.runInAsyncScope(() => poller.start(after));
    entry.previous = poller.done
      .catch((error: unknown) => {
        this.logger.error({ err: { name: (error as Error)?.name } }, 'live poller failed');
      })
      .then(() => this.forgetIfUnused(entry));
  }

  private left(entry: CredentialEntry, stream: EventStream): void {
    const kind = entry.streams.get(stream);
    if (kind === undefined || !entry.streams.delete(stream)) return;
    this.total -= 1;
    this.metrics.subscriptions(kind, -1);
    if (entry.streams.size > 0 || this.closing) return;
    clearTimeout(entry.idle);
    entry.idle = undefined;
    // No poller (the upstream refused it): nothing to keep running, the entry goes now.
    if (!entry.poller) {
      this.forgetIfUnused(entry);
      return;
    }
    entry.idle = setTimeout(() => {
      entry.idle = undefined;
      if (entry.streams.size > 0) return;
      const { poller } = entry;
      entry.poller = undefined;
      // The poller's end forgets the entry (see startPoller), once its lease is released.
      if (poller) poller.stop();
      else this.forgetIfUnused(entry);
    }, this.settings.live.idleMs);
    entry.idle.unref();
  }

  /**
   * Drops a credential's entry (and with it the credential) once it has no stream, no poller and
   * no idle timer, whichever of them ends last: entries stay bounded, refused credentials included.
   */
  private forgetIfUnused(entry: CredentialEntry): void {
    if (entry.streams.size > 0 || entry.poller || entry.idle || this.entries.get(entry.digest) !== entry)
      return;
    // Its poll window lives in the shared budget: leaving and coming back cannot reset it.
    this.entries.delete(entry.digest);
    entry.joins.clear();
    this.snapshots.forget(entry.digest);
  }
}
