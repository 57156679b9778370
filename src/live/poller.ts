// One credential's poller: while it holds the credential's lease, walks the whole tunnel list every
// interval within the poll budget, diffs each complete walk against the last snapshot and publishes
// the changes. Without the lease (another replica polls) it waits and asks again, only while it
// has subscribers. A failed walk is discarded and backed off; a refused credential ends its
// streams and the poller.
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../errors';
import type { Logger } from '../log';
import { MINUTE_MS } from '../time';
import type { NgrokClient, UpstreamTally } from '../upstream';
import type { RollingBudget } from './budget';
import type { TunnelFeed } from './feed';
import type { PollLease } from './lease';
import { LeaseKeeper } from './lease-keeper';
import type { LiveMetrics } from './metrics';
import { diffSnapshots, newest, type Snapshot, type SnapshotStore } from './snapshot';
import { walkTunnels } from './walk';

/** The longest wait after failed walks. */
const MAX_BACKOFF_MS = MINUTE_MS;

export interface PollerOptions {
  readonly digest: string;
  readonly client: NgrokClient;
  /** What the client's calls sent upstream (its scope's tally): the budget counts these. */
  readonly tally: UpstreamTally;
  readonly store: SnapshotStore;
  readonly feed: TunnelFeed;
  readonly lease: PollLease;
  readonly budget: RollingBudget;
  readonly intervalMs: number;
  /** The transport's retries of one call: a page may cost 1 + retries calls, so that much must fit. */
  readonly retries: number;
  readonly metrics: LiveMetrics;
  readonly logger: Logger;
  /** Whether this process has subscribers of the credential: only then does it take the lease over. */
  readonly wanted: () => boolean;
  /** The upstream refused the credential; the poller has stopped. */
  readonly onRefused: () => void;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

const isRefusal = (error: unknown): error is GatewayError =>
  error instanceof GatewayError && (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN');

/** Thrown into a walk whose lease went to another replica: its pages are of no use any more. */
class LeaseLost extends Error {}

export class Poller {
  private stopped = false;
  private readonly abort = new AbortController();
  private running: Promise<void> = Promise.resolve();
  private readonly keeper: LeaseKeeper;
  private readonly credential: string;

  constructor(private readonly options: PollerOptions) {
    this.credential = options.digest.slice(0, 8);
    this.keeper = new LeaseKeeper(options.lease, options.digest, (held) => {
      // Running without the lease is standing by; each replica's gauges say which it is doing.
      options.metrics.pollers(held ? 1 : -1);
      options.metrics.standby(held ? -1 : 1);
      if (held)
        options.logger.info(
          { credential: this.credential, intervalMs: options.intervalMs },
          'live poller started',
        );
      else if (!this.stopped)
        options.logger.info({ credential: this.credential }, 'live poll lease lost to another replica');
    });
  }

  /** Resolves when the loop has ended and the snapshot is retired (after stop() or a refusal). */
  get done(): Promise<void> {
    return this.running;
  }

  /** Whether this process polls the credential now (holds its lease). */
  get polling(): boolean {
    return this.keeper.held;
  }

  /** `after`: a previous poller of this credential that must have finished first. */
  start(after: Promise<void> = Promise.resolve()): void {
    this.running = after.then(() => this.run());
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  /** Waits `ms` unless stopped meanwhile; false when stopped. */
  private async pause(ms: number): Promise<boolean> {
    if (this.stopped) return false;
    if (ms > 0) await sleep(ms, undefined, { signal: this.abort.signal }).catch(() => undefined);
    return !this.stopped;
  }

  /** Waits until `calls` more fit in the budget. */
  private async room(calls: number): Promise<boolean> {
    for (let wait = this.options.budget.waitFor(calls); wait > 0; wait = this.options.budget.waitFor(calls)) {
      if (!(await this.pause(wait))) return false;
    }
    return !this.stopped;
  }

  /** Waits until this process holds the lease; false when stopped first. */
  private async holdLease(): Promise<boolean> {
    const { lease, intervalMs, wanted } = this.options;
    const retryMs = Math.min(intervalMs, lease.renewMs);
    while (!this.stopped) {
      if (wanted() && (await this.keeper.take())) return !this.stopped;
      if (!(await this.pause(retryMs))) return false;
    }
    return false;
  }

  private async run(): Promise<void> {
    const { digest, store, feed, metrics, logger, intervalMs, retries } = this.options;
    const credential = this.credential;
    metrics.standby(1);
    let refused = false;
    try {
      let previous: Snapshot | undefined;
      let pages = 1;
      let failures = 0;
      while (!this.stopped) {
        if (!this.keeper.held) {
          if (!(await this.holdLease())) break;
          // Taken over (or back): diff against the newest of the shared snapshot and this process's last walk.
          previous = newest(previous, await store.get(digest));
        }
        if (!(await this.room(pages + retries))) break;
        const started = performance.now();
        let walked = 0;
        let walkCalls = 0;
        const outcome = await settle(
          walkTunnels(this.options.client, {
            beforePage: async () => {
              walked += 1;
              if (!(await this.room(1 + retries))) throw new Error('stopped');
              if (!this.keeper.held) throw new LeaseLost();
            },
            call: async (fn) => {
              const before = this.options.tally.calls;
              try {
                return await fn();
              } finally {
                const calls = this.options.tally.calls - before;
                this.options.budget.record(calls);
                walkCalls += calls;
                metrics.upstreamCalls(calls);
              }
            },
          }),
        );
        if (this.stopped) break;
        let delay: number;
        if (outcome.ok) {
          // Only the holder publishes: a lease lost during the walk (a stall past its TTL) discards it.
          if (!(await this.keeper.confirm())) continue;
          failures = 0;
          pages = Math.max(1, walked);
          const next: Snapshot = {
            // Clock-based, so versions keep growing when another replica takes over (streams skip by version).
            version: Math.max((previous?.version ?? 0) + 1, Date.now()),
            observedAt: new Date().toISOString(),
            tunnels: outcome.value,
          };
          await store.set(digest, next);
          if (previous === undefined) feed.publish(digest, { type: 'baseline', version: next.version });
          else {
            const events = diffSnapshots(previous, next);
            if (events.length > 0) feed.publish(digest, { type: 'changes', version: next.version, events });
          }
          previous = next;
          metrics.poll('complete');
          // Evenly spaced within the budget: a walk of n calls every 60 s × n / budget at the soonest.
          const paced = Math.ceil((MINUTE_MS * walkCalls) / this.options.budget.perMinute);
          delay = Math.max(intervalMs, paced) - (performance.now() - started);
        } else if (outcome.error instanceof LeaseLost) {
          continue;
        } else if (isRefusal(outcome.error)) {
          const error = outcome.error;
          refused = true;
          metrics.poll('refused');
          this.stopped = true;
          this.options.onRefused();
          feed.publish(digest, {
            type: 'ended',
            code: error.code,
            message: error.message,
            upstream: error.details.upstream,
          });
          break;
        } else {
          failures += 1;
          metrics.poll('failed');
          const error = outcome.error;
          const retryAfterMs = error instanceof GatewayError ? (error.details.retryAfter ?? 0) * 1000 : 0;
          delay = Math.max(retryAfterMs, Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 10)));
          logger.warn(
            {
              credential,
              code: error instanceof GatewayError ? error.code : 'INTERNAL_SERVER_ERROR',
              failures,
            },
            'live poll failed; the walk is discarded and retried later',
          );
        }
        if (!(await this.pause(delay))) break;
      }
    } finally {
      const polled = this.keeper.held;
      await this.keeper.release();
      await store.retire(digest);
      metrics.standby(-1);
      if (polled) logger.info({ credential, refused }, 'live poller stopped');
    }
  }
}
