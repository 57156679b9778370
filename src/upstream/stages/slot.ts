// A cap on simultaneous upstream requests per credential (the upstream limits them too), and the
// stage that holds one slot for each attempt. Excess calls wait in a bounded FIFO queue; past its
// bound, or past the operation's deadline, they fail.
import { GatewayError, UpstreamError } from '../../errors';
import type { UpstreamEvents } from '../http/hooks';
import { MESSAGES } from '../http/messages';
import { AttemptFailure, asFailure, type Stage, statusOf } from '../http/stage';

export type Release = () => void;

/** Why a call got no slot. */
class LimiterRejection extends Error {
  override name = 'LimiterRejection';
  constructor(readonly reason: 'queue-full' | 'deadline') {
    super(reason);
  }
}

interface Waiter {
  grant(release: Release): void;
  timer: NodeJS.Timeout | undefined;
}

interface Lane {
  active: number;
  readonly queue: Waiter[];
}

export class ConcurrencyLimiter {
  private readonly lanes = new Map<string, Lane>();

  /** `max` simultaneous calls per key; at most `queueLimit` more waiting. */
  constructor(
    private readonly max: number,
    private readonly queueLimit: number,
  ) {}

  /** Calls running now for a key (tests and metrics). */
  active(key: string): number {
    return this.lanes.get(key)?.active ?? 0;
  }

  /** Waiting calls for a key. */
  queued(key: string): number {
    return this.lanes.get(key)?.queue.length ?? 0;
  }

  /**
   * A release function once the key has a free slot. Rejects at once with `queue-full`, or with
   * `deadline` when `deadline` (performance.now() clock) passes while waiting.
   */
  acquire(key: string, deadline: number): Promise<Release> {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { active: 0, queue: [] };
      this.lanes.set(key, lane);
    }
    if (lane.active < this.max) {
      lane.active += 1;
      return Promise.resolve(this.releaser(key, lane));
    }
    if (lane.queue.length >= this.queueLimit) return Promise.reject(new LimiterRejection('queue-full'));
    const queue = lane.queue;
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, timer: undefined };
      const wait = deadline - performance.now();
      if (Number.isFinite(wait)) {
        waiter.timer = setTimeout(
          () => {
            const at = queue.indexOf(waiter);
            if (at !== -1) queue.splice(at, 1);
            reject(new LimiterRejection('deadline'));
          },
          Math.max(0, wait),
        );
      }
      queue.push(waiter);
    });
  }

  /** A release function that hands the slot to the next waiter, or frees it; idempotent. */
  private releaser(key: string, lane: Lane): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.queue.shift();
      if (next) {
        if (next.timer) clearTimeout(next.timer);
        next.grant(this.releaser(key, lane));
        return;
      }
      lane.active -= 1;
      // Idle lanes go, so the map does not grow with every credential ever seen.
      if (lane.active === 0) this.lanes.delete(key);
    };
  }
}

/** How long a timed-out attempt keeps its slot after the gateway gave up on it (about a round trip). */
const ABANDONED_LINGER_MS = 50;

/** A slot of the credential's share of upstream concurrency, held for the attempt. */
export const slotStage =
  (limiter: ConcurrencyLimiter, events: UpstreamEvents | undefined): Stage =>
  (next) =>
  async (call) => {
    let release: Release;
    try {
      release = await limiter.acquire(call.digest, call.deadline);
    } catch (error) {
      if (!(error instanceof LimiterRejection)) throw error;
      if (error.reason === 'deadline') {
        throw new AttemptFailure(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT), 'local');
      }
      events?.rateLimited?.({ route: call.request.route, source: 'gateway', retryAfter: 1 });
      throw new AttemptFailure(
        new GatewayError('RATE_LIMITED', MESSAGES.QUEUE_FULL, { retryAfter: 1 }),
        'local',
      );
    }
    let abandoned = false;
    try {
      return await next(call);
    } catch (caught) {
      const failure = asFailure(caught);
      abandoned =
        failure.delivery === 'sent' &&
        statusOf(failure.error) === undefined &&
        failure.error.code === 'UPSTREAM_TIMEOUT';
      throw failure;
    } finally {
      // The upstream counts an abandoned request until it sees the connection close: its slot is
      // held a moment longer, so the next call does not push the upstream past its own cap.
      if (abandoned) setTimeout(release, ABANDONED_LINGER_MS).unref();
      else release();
    }
  };
