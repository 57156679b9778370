// The budget in this process (rules in rate-budget.ts): exact for one replica, and what a replica
// counts with while Redis is down, with its share of the limit; what it granted then is handed
// over to Redis when Redis is back, so the cluster's windows count it.
import { LRUCache } from 'lru-cache';
import {
  type BudgetDecision,
  type Ceilings,
  type ClaimKind,
  type ClientKind,
  ceilingsOf,
  clientCallsWithin,
  pollCallsWithin,
  type RateBudget,
  type RateBudgetOptions,
  WINDOW_MS,
} from './rate-budget';
import { dropBefore, waitUntil, whenFree, whenFreeFor } from './rolling-window';

/** One credential's calls in the window, oldest first (epoch ms). */
export interface WindowCalls {
  readonly calls: number[];
  readonly polls: number[];
}

/** Where windows counted here go when Redis is back (RedisRateBudget). */
export interface WindowRecorder {
  record(digest: string, window: WindowCalls): Promise<void>;
}

export interface MemoryRateBudgetOptions extends RateBudgetOptions {
  /** Credentials tracked at most; the least recently used window goes first (default 10 000). */
  readonly maxDigests?: number;
  readonly now?: () => number;
}

/** The decision for a window already cleared of expired calls; shared with nothing else. */
function decide(w: WindowCalls, kind: ClaimKind, c: Ceilings, now: number, windowMs: number): BudgetDecision {
  const ceiling = c[kind];
  // When the call that must leave the window before this claim fits leaves it.
  let at = whenFree(w.calls, ceiling, now, windowMs);
  if (kind === 'poll') at = Math.max(at, whenFree(w.polls, c.pollOwn, now, windowMs));
  if (at > now) return { granted: false, retryInMs: Math.max(1, Math.ceil(at - now)) };
  w.calls.push(now);
  if (kind === 'poll') w.polls.push(now);
  const left = ceiling - w.calls.length;
  return {
    granted: true,
    remaining: kind === 'poll' ? Math.min(left, c.pollOwn - w.polls.length) : left,
    at: now,
  };
}

export class MemoryRateBudget implements RateBudget {
  private readonly ceilings: Ceilings;
  private readonly windowMs: number;
  private readonly now: () => number;
  /** A window lives `windowMs` after its last call, when it is empty by definition. */
  private readonly windows: LRUCache<string, WindowCalls>;

  constructor(options: MemoryRateBudgetOptions) {
    this.ceilings = ceilingsOf(options.limitPerMin, options.pollBudgetPerMin);
    this.windowMs = options.windowMs ?? WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.windows = new LRUCache({ max: options.maxDigests ?? 10_000, ttl: this.windowMs });
  }

  /** Credentials with calls in the window (tests, bounds). */
  get size(): number {
    this.windows.purgeStale();
    return this.windows.size;
  }

  async take(digest: string, kind: ClaimKind): Promise<BudgetDecision> {
    const now = this.now();
    const w = this.current(digest, now);
    const decision = decide(w, kind, this.ceilings, now, this.windowMs);
    if (decision.granted) this.windows.set(digest, w);
    return decision;
  }

  async pollWait(digest: string, calls: number): Promise<number> {
    const now = this.now();
    const w = this.current(digest, now);
    const { poll, pollOwn } = this.ceilings;
    const n = pollCallsWithin(calls, pollOwn);
    const at = Math.max(
      whenFreeFor(w.calls, poll, n, now, this.windowMs),
      whenFreeFor(w.polls, pollOwn, n, now, this.windowMs),
    );
    return waitUntil(at, now);
  }

  async waitFor(digest: string, kind: ClientKind, calls: number): Promise<number> {
    const now = this.now();
    const ceiling = this.ceilings[kind];
    const n = clientCallsWithin(calls, ceiling);
    return waitUntil(whenFreeFor(this.current(digest, now).calls, ceiling, n, now, this.windowMs), now);
  }

  /** Hands over and forgets every window (Redis took over again: its windows must count these). */
  drain(): Map<string, WindowCalls> {
    const edge = this.now() - this.windowMs;
    const out = new Map<string, WindowCalls>();
    for (const [digest, w] of this.windows.entries()) {
      dropBefore(w.calls, edge);
      dropBefore(w.polls, edge);
      if (w.calls.length > 0) out.set(digest, w);
    }
    this.windows.clear();
    return out;
  }

  /** Redis is back: it records what was granted here during the outage. */
  async handOver(redis: WindowRecorder): Promise<void> {
    for (const [digest, window] of this.drain()) await redis.record(digest, window);
  }

  /** The credential's window, cleared of the calls that left it. */
  private current(digest: string, now: number): WindowCalls {
    const w = this.windows.get(digest) ?? { calls: [], polls: [] };
    dropBefore(w.calls, now - this.windowMs);
    dropBefore(w.polls, now - this.windowMs);
    return w;
  }
}
