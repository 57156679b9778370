// A cap on simultaneous upstream requests per credential (the upstream limits them too), and the
// stage that holds one slot for each attempt. Excess calls wait in a bounded FIFO queue; past its
// bound, or past the operation's deadline, they fail.
import { GatewayError, UpstreamError } from '../../errors';
import type { UpstreamEvents } from '../call/hooks';
import { MESSAGES } from '../call/messages';
import type { UpstreamResponse } from '../call/request';
import { AttemptFailure, asFailure, type Call, callNext, type Stage, statusOf } from '../call/stage';

export interface SlotOptions {
  /** Simultaneous upstream requests per credential. */
  readonly maxConcurrency: number;
  /** Calls per credential allowed to wait for a slot; beyond it RATE_LIMITED at once. */
  readonly queueLimit: number;
  readonly events?: UpstreamEvents;
}

type Release = () => void;

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

class ConcurrencyLimiter {
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
    const release = this.tryAcquire(key);
    if (release) return Promise.resolve(release);
    // tryAcquire left the key's lane in place: it is busy.
    const lane = this.lanes.get(key) as Lane;
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

  /** A release function at once when the key has a free slot; undefined when its calls must wait. */
  tryAcquire(key: string): Release | undefined {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { active: 0, queue: [] };
      this.lanes.set(key, lane);
    }
    if (lane.active >= this.max) return undefined;
    lane.active += 1;
    return this.releaser(key, lane);
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
export const slotStage = (options: SlotOptions): Stage =>
  holdingSlots(new ConcurrencyLimiter(options.maxConcurrency, options.queueLimit), options.events);

const holdingSlots = (limiter: ConcurrencyLimiter, events: UpstreamEvents | undefined): Stage => {
  const refused = (call: Call, error: unknown): never => {
    if (!(error instanceof LimiterRejection)) throw error;
    if (error.reason === 'deadline') {
      throw new AttemptFailure(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT), 'local');
    }
    events?.rateLimited?.({ route: call.request.route, source: 'gateway', retryAfter: 1 });
    throw new AttemptFailure(
      new GatewayError('RATE_LIMITED', MESSAGES.QUEUE_FULL, { retryAfter: 1 }),
      'local',
    );
  };
  return (next) => {
    /** The attempt with its slot, handed back when it ends (a timed-out one's a moment later). */
    const holding = (call: Call, release: Release): Promise<UpstreamResponse> =>
      callNext(next, call).then(
        (response) => {
          release();
          return response;
        },
        (caught: unknown) => {
          const failure = asFailure(caught);
          const abandoned =
            failure.delivery === 'sent' &&
            statusOf(failure.error) === undefined &&
            failure.error.code === 'UPSTREAM_TIMEOUT';
          // The upstream counts an abandoned request until it sees the connection close: its slot is
          // held a moment longer, so the next call does not push the upstream past its own cap.
          if (abandoned) setTimeout(release, ABANDONED_LINGER_MS).unref();
          else release();
          throw failure;
        },
      );
    return (call) => {
      // A free slot is taken in the same tick; only a call that must queue waits for one.
      const release = limiter.tryAcquire(call.digest);
      if (release) return holding(call, release);
      return limiter.acquire(call.digest, call.deadline).then(
        (granted) => holding(call, granted),
        (error: unknown) => refused(call, error),
      );
    };
  };
};
