// One credential's poller: while it holds the credential's lease, walks every list some subscriber
// wants (tunnels, endpoints, tunnel sessions: on this replica or, through the shared interest marks,
// on another) every interval within the poll budget, and publishes each walk's changes
// (observe.ts). Without the lease (another replica polls) it marks what its subscribers want, waits
// and asks again, only while it has subscribers. A failed walk is discarded and backed off; a list the upstream refuses
// (401/403) ends the streams of that kind only, and the poller once no other kind is wanted here.
// Its waits are poll-waits.ts's, the ways a walk ends other than complete poll-endings.ts's.
import { GatewayError } from '../../../errors';
import type { Logger } from '../../../log';
import { MINUTE_MS } from '../../../time';
import type { CallLedger, NgrokClient } from '../../../upstream';
import { KINDS, LIVE_KINDS, type LiveKind } from '../../kinds/kinds';
import type { LiveMetrics } from '../../metrics';
import type { LiveFeed } from '../feed';
import type { Interest } from '../replicas/interest';
import type { PollLease } from '../replicas/lease';
import { LeaseKeeper } from '../replicas/lease-keeper';
import { type SharedSnapshots, SnapshotTooLarge } from '../snapshots/shared-snapshots';
import type { Snapshot } from '../snapshots/snapshot';
import { observe } from './observe';
import { backoffMs, endedMessage, endsStreams, LeaseLost, Stopped } from './poll-endings';
import { type PollBudget, PollWaits } from './poll-waits';

export interface PollerOptions {
  readonly digest: string;
  readonly client: NgrokClient;
  /** What the client's calls sent upstream (the ledger its scope's sums into). */
  readonly ledger: CallLedger;
  readonly snapshots: SharedSnapshots;
  readonly interest: Interest;
  readonly feed: LiveFeed;
  readonly lease: PollLease;
  readonly budget: PollBudget;
  readonly intervalMs: number;
  /** The transport's retries of one call: a page may cost 1 + retries calls, so that much must fit. */
  readonly retries: number;
  readonly metrics: LiveMetrics;
  readonly logger: Logger;
  /** The kinds this process has subscribers of now: only with some does it take the lease over. */
  readonly wanted: () => readonly LiveKind[];
  /** The upstream refused every kind wanted here; the poller has stopped. */
  readonly onRefused: () => void;
}

export class Poller {
  private readonly waits: PollWaits;
  private running: Promise<void> = Promise.resolve();
  private readonly keeper: LeaseKeeper;
  private readonly credential: string;
  /** This poller's last observation of each kind. */
  private readonly previous = new Map<LiveKind, Snapshot>();
  /** Pages of each kind's last walk: the room a walk needs before it starts. */
  private readonly pages = new Map<LiveKind, number>();
  /** Upstream calls of the current turn. */
  private turnCalls = 0;
  /** Kinds whose list the upstream refused: not walked again until a new subscriber of the kind nudges. */
  private readonly refusedKinds = new Set<LiveKind>();

  constructor(private readonly options: PollerOptions) {
    this.credential = options.digest.slice(0, 8);
    this.waits = new PollWaits(options.budget);
    this.keeper = new LeaseKeeper(options.lease, options.digest, (held) => {
      // Running without the lease is standing by; each replica's gauges say which it is doing.
      options.metrics.pollers(held ? 1 : -1);
      options.metrics.standby(held ? -1 : 1);
      if (held)
        options.logger.info(
          { credential: this.credential, intervalMs: options.intervalMs },
          'live poller started',
        );
      else if (!this.waits.isStopped)
        options.logger.info({ credential: this.credential }, 'live poll lease lost to another replica');
    });
  }

  /** Resolves when the loop has ended (after stop() or a refusal). */
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
    this.waits.stop();
  }

  /**
   * `kind` is newly wanted here: the next turn starts now rather than after the interval (never after
   * a failure), and a refusal of that kind's list is asked again.
   */
  nudge(kind: LiveKind): void {
    this.refusedKinds.delete(kind);
    this.waits.nudge();
  }

  /** Waits until this process holds the lease, marking meanwhile what its subscribers want. */
  private async holdLease(): Promise<boolean> {
    const { lease, intervalMs, wanted, interest, digest } = this.options;
    const retryMs = Math.min(intervalMs, lease.renewMs);
    while (!this.waits.isStopped) {
      const kinds = wanted();
      if (kinds.length > 0 && (await this.keeper.take())) return !this.waits.isStopped;
      await interest.mark(digest, kinds);
      if (!(await this.waits.pause(retryMs))) return false;
    }
    return false;
  }

  /** One kind's walk and publishing; throws what the walk threw, LeaseLost when it is discarded. */
  private async observeKind(kind: LiveKind): Promise<void> {
    const { retries, ledger, metrics } = this.options;
    if (!(await this.waits.room((this.pages.get(kind) ?? 1) + retries))) throw new Stopped();
    let walked = 0;
    const observed = await observe(this.options, kind, this.previous.get(kind), {
      beforePage: async () => {
        walked += 1;
        if (!(await this.waits.room(1 + retries))) throw new Stopped();
        if (!this.keeper.held) throw new LeaseLost();
      },
      call: async (fn) => {
        const before = ledger.calls;
        try {
          return await fn();
        } finally {
          const calls = ledger.calls - before;
          this.turnCalls += calls;
          metrics.upstreamCalls(calls);
        }
      },
      stillPolling: () => this.keeper.confirm(),
    });
    if (!observed.ok) throw new LeaseLost();
    this.pages.set(kind, Math.max(1, walked));
    this.previous.set(kind, observed.snapshot);
    metrics.poll(kind, 'complete');
  }

  /**
   * `kind`'s streams end, on every replica, and the other kinds go on: the upstream refused its list
   * (401, or 403: the plan may lack the feature), or the list outgrew LIVE_MAX_SNAPSHOT_BYTES. The
   * kind is not walked again until a new subscriber of it nudges. True when nothing else is wanted
   * here, and the poller stops.
   */
  private ended(kind: LiveKind, error: GatewayError | SnapshotTooLarge): boolean {
    this.options.metrics.poll(kind, error instanceof SnapshotTooLarge ? 'too_large' : 'refused');
    this.refusedKinds.add(kind);
    this.options.feed.publish(KINDS[kind].topic, this.options.digest, endedMessage(kind, error));
    if (this.options.wanted().some((wanted) => !this.refusedKinds.has(wanted))) return false;
    this.waits.stop();
    this.options.onRefused();
    return true;
  }

  /** The wait after a failed walk: the upstream's retryAfter, or a doubling backoff. */
  private failed(kind: LiveKind, error: unknown, failures: number): number {
    const { metrics, logger, intervalMs } = this.options;
    metrics.poll(kind, 'failed');
    logger.warn(
      {
        credential: this.credential,
        list: kind,
        code: error instanceof GatewayError ? error.code : 'INTERNAL_SERVER_ERROR',
        failures,
      },
      'live poll failed; the walk is discarded and retried later',
    );
    return backoffMs(error, failures, intervalMs);
  }

  private async run(): Promise<void> {
    const { digest, metrics, logger, intervalMs, interest, wanted, budget } = this.options;
    metrics.standby(1);
    let refused = false;
    let failures = 0;
    try {
      while (!this.waits.isStopped) {
        if (!this.keeper.held && !(await this.holdLease())) break;
        const started = performance.now();
        this.turnCalls = 0;
        let delay = intervalMs;
        let wakeable = true;
        let kind: LiveKind = LIVE_KINDS[0] as LiveKind;
        try {
          const kinds = await interest.wanted(digest, wanted());
          for (kind of kinds.filter((k) => !this.refusedKinds.has(k))) {
            await this.observeKind(kind);
            if (!this.keeper.held) break;
          }
          failures = 0;
          // Evenly spaced within the budget: n calls every 60 s × n / budget at the soonest.
          const paced = Math.ceil((MINUTE_MS * this.turnCalls) / budget.perMinute);
          delay = Math.max(intervalMs, paced) - (performance.now() - started);
        } catch (error) {
          if (this.waits.isStopped || error instanceof Stopped) break;
          if (error instanceof LeaseLost) {
            metrics.poll(kind, 'lease_lost');
            continue;
          }
          if (endsStreams(error)) {
            refused = this.ended(kind, error);
            if (refused) break;
          } else {
            failures += 1;
            wakeable = false;
            delay = this.failed(kind, error, failures);
          }
        }
        if (!(await this.waits.pause(delay, wakeable))) break;
      }
    } finally {
      const polled = this.keeper.held;
      await this.keeper.release();
      metrics.standby(-1);
      if (polled) logger.info({ credential: this.credential, refused }, 'live poller stopped');
    }
  }
}
