// The registry of live subscriptions: limits per credential and in all, one poller per credential
// started by its first subscriber and stopped LIVE_IDLE_MS after its last one leaves (with Redis it
// polls only while it holds the credential's lease), and the graceful end of every stream on shutdown.
import { AsyncResource } from 'node:async_hooks';
import type { Registry } from 'prom-client';
import type { LiveConfig, UpstreamConfig } from '../config';
import { GatewayError } from '../errors';
import { type Logger, silentLogger } from '../log';
import { MINUTE_MS } from '../time';
import { credentialDigest, NgrokClient, newScope, newTally, type UpstreamTransport } from '../upstream';
import type { SubscriberLink } from './backlog';
import { RollingBudget } from './budget';
import { PubSubFeed, type TunnelFeed } from './feed';
import { LocalLease, type PollLease } from './lease';
import { createLiveMetrics, type LiveMetrics } from './metrics';
import { Poller } from './poller';
import { MemorySnapshotStore, type SnapshotStore } from './snapshot';
import { type StreamItem, TunnelEventStream } from './stream';

export interface LiveSettings {
  readonly live: Omit<LiveConfig, 'standinChurn'>;
  /** The transport's retries: a page call may cost 1 + this many calls. */
  readonly upstream: Pick<UpstreamConfig, 'retries'>;
}

export interface LiveDeps {
  readonly transport: UpstreamTransport;
  readonly registry: Registry;
  readonly logger?: Logger;
  readonly feed?: TunnelFeed;
  readonly store?: SnapshotStore;
  readonly lease?: PollLease;
}

interface CredentialEntry {
  readonly digest: string;
  readonly apiKey: string;
  readonly streams: Set<TunnelEventStream>;
  poller?: Poller;
  /** The last poller's end, awaited before a new one starts (it clears the snapshot). */
  previous: Promise<void>;
  idle?: NodeJS.Timeout;
  /** Survives poller restarts, so a credential cannot reset its budget by leaving and coming back. */
  readonly budget: RollingBudget;
}

/** A forgotten credential's budget window must be empty: its calls leave it after a minute. */
const BUDGET_WINDOW_MS = MINUTE_MS;

const limited = (message: string) => new GatewayError('RATE_LIMITED', message);

export class LiveEvents {
  private readonly entries = new Map<string, CredentialEntry>();
  private readonly feed: TunnelFeed;
  private readonly store: SnapshotStore;
  private readonly lease: PollLease;
  private readonly metrics: LiveMetrics;
  private readonly logger: Logger;
  /** Pollers run outside any request's async context (its deadline and log tally are not theirs). */
  private readonly scope = new AsyncResource('LivePollers');
  private total = 0;
  private closing = false;

  constructor(
    private readonly settings: LiveSettings,
    private readonly deps: LiveDeps,
  ) {
    this.feed = deps.feed ?? new PubSubFeed();
    this.store = deps.store ?? new MemorySnapshotStore();
    this.lease = deps.lease ?? new LocalLease();
    this.metrics = createLiveMetrics(deps.registry, () => this.heldBytes());
    this.logger = deps.logger ?? silentLogger();
  }

  /** Open subscriptions, in all or of one credential. */
  count(apiKey?: string): number {
    return apiKey === undefined
      ? this.total
      : (this.entries.get(credentialDigest(apiKey))?.streams.size ?? 0);
  }

  /** Credentials this process polls now (with Redis: whose lease it holds). */
  pollers(): number {
    let n = 0;
    for (const entry of this.entries.values()) if (entry.poller?.polling) n += 1;
    return n;
  }

  /** Bytes of events held now for every open subscriber (queued, plus unsent in their transports). */
  heldBytes(): number {
    let bytes = 0;
    for (const entry of this.entries.values())
      for (const stream of entry.streams) bytes += stream.heldBytes();
    return bytes;
  }

  /**
   * A stream of the credential's tunnel events; RATE_LIMITED beyond the limits. `link`: the
   * subscriber's transport, dropped when more than LIVE_MAX_SUBSCRIBER_BUFFER_BYTES wait for it.
   */
  subscribe(
    apiKey: string,
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
    const entry = this.entryFor(apiKey);
    if (entry.streams.size >= liveMaxSubscriptionsPerCredential) {
      throw limited(
        `At most ${liveMaxSubscriptionsPerCredential} subscriptions per credential; close one to open another.`,
      );
    }
    const stream: TunnelEventStream = new TunnelEventStream({
      feed: this.feed,
      store: this.store,
      digest: entry.digest,
      includeCurrent,
      onEnd: () => this.left(entry, stream),
      onSent: (event) => this.metrics.sent(event.kind),
      capBytes: this.settings.live.maxSubscriberBufferBytes,
      link,
      onTooSlow: () => {
        this.metrics.tooSlow(link?.transport ?? 'none');
        this.logger.info(
          { credential: entry.digest.slice(0, 8), transport: link?.transport ?? 'none' },
          'live subscriber dropped: it read too slowly',
        );
      },
      onHeld: (bytes) => this.metrics.held(bytes),
    });
    entry.streams.add(stream);
    this.total += 1;
    this.metrics.subscriptions(1);
    clearTimeout(entry.idle);
    entry.idle = undefined;
    if (!entry.poller) this.startPoller(entry);
    return stream;
  }

  /** Completes every open stream and stops every poller (graceful shutdown). */
  async close(): Promise<void> {
    this.closing = true;
    const ends: Promise<void>[] = [];
    for (const entry of this.entries.values()) {
      for (const stream of [...entry.streams]) stream.complete();
      clearTimeout(entry.idle);
      entry.poller?.stop();
      ends.push(entry.previous);
    }
    await Promise.all(ends);
  }

  private entryFor(apiKey: string): CredentialEntry {
    const digest = credentialDigest(apiKey);
    let entry = this.entries.get(digest);
    if (!entry) {
      entry = {
        digest,
        apiKey,
        streams: new Set(),
        previous: Promise.resolve(),
        budget: new RollingBudget(this.settings.live.pollBudgetPerMin),
      };
      this.entries.set(digest, entry);
    }
    return entry;
  }

  private startPoller(entry: CredentialEntry): void {
    const tally = newTally();
    const poller: Poller = new Poller({
      digest: entry.digest,
      // No read cache: every walk must see the upstream as it is now. The scope's tally counts the
      // attempts the poller's own calls send, whatever clients do meanwhile.
      client: new NgrokClient(this.deps.transport.scoped(newScope(tally)), entry.apiKey),
      tally,
      store: this.store,
      feed: this.feed,
      lease: this.lease,
      budget: entry.budget,
      intervalMs: this.settings.live.pollIntervalMs,
      retries: this.settings.upstream.retries,
      metrics: this.metrics,
      logger: this.logger,
      wanted: () => entry.streams.size > 0,
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

  private left(entry: CredentialEntry, stream: TunnelEventStream): void {
    if (!entry.streams.delete(stream)) return;
    this.total -= 1;
    this.metrics.subscriptions(-1);
    if (entry.streams.size > 0 || this.closing) return;
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      entry.idle = undefined;
      if (entry.streams.size > 0) return;
      // The poller's end forgets the entry (see startPoller), once its snapshot is cleared.
      entry.poller?.stop();
      entry.poller = undefined;
    }, this.settings.live.idleMs);
    entry.idle.unref();
  }

  /** Drops a credential's entry once it has no stream and no poller, so entries stay bounded. */
  private forgetIfUnused(entry: CredentialEntry): void {
    if (entry.streams.size > 0 || entry.poller || entry.idle || this.entries.get(entry.digest) !== entry)
      return;
    if (entry.budget.used() === 0) {
      this.entries.delete(entry.digest);
      return;
    }
    // Kept while its budget window still counts calls, so leaving and coming back cannot reset it.
    entry.idle = setTimeout(() => {
      entry.idle = undefined;
      this.forgetIfUnused(entry);
    }, BUDGET_WINDOW_MS);
    entry.idle.unref();
  }
}
