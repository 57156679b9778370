// The gateway's own upstream budget per credential digest: at most `limitPerMin` calls in any
// rolling window (60 s), across every replica when it lives in Redis. Who may claim a slot:
//   - a mutation, while fewer than `limit` calls are in the window;
//   - a client read, while fewer than `limit - reserve` are (reserve = floor(limit / 10): the last
//     tenth is kept for mutations, so a dashboard's reads never lock its user out of writing);
//   - the live poller, under the same ceiling as reads and only while it has fewer than
//     min(LIVE_POLL_BUDGET_PER_MIN, floor(limit / 2)) calls of its own in the window: clients always
//     keep at least half of the budget however busy the poller is.
// A refusal says in how many ms a slot frees for that kind, so a caller can wait when that fits
// its deadline, or fail at once with RATE_LIMITED and retryAfter = retryAfterSeconds(ms).
import { LRUCache } from 'lru-cache';
import { MINUTE_MS } from '../time';
import { dropBefore, whenFree } from './rolling-window';

export type ClaimKind = 'mutation' | 'read' | 'poll';

export type BudgetDecision =
  | {
      readonly granted: true;
      /** Calls of this kind still allowed in the window after this one. */
      readonly remaining: number;
      /** When the slot was taken, on the budget's clock (epoch ms). */
      readonly at: number;
    }
  | {
      readonly granted: false;
      /** Milliseconds until a slot for this kind frees (at least 1). */
      readonly retryInMs: number;
    };

export interface RateBudget {
  take(digest: string, kind: ClaimKind): Promise<BudgetDecision>;
}

export interface RateBudgetOptions {
  /** UPSTREAM_RATE_LIMIT_PER_MIN: calls per window and credential; 0 turns the budget off. */
  readonly limitPerMin: number;
  /** LIVE_POLL_BUDGET_PER_MIN: the poller's own share of the window. */
  readonly pollBudgetPerMin: number;
  /** Length of the rolling window (60 000; tests shorten it). */
  readonly windowMs?: number;
}

export const WINDOW_MS = MINUTE_MS;

/** How many calls may be in the window when a claim of each kind is made. */
export interface Ceilings {
  readonly mutation: number;
  readonly read: number;
  readonly poll: number;
  /** The poller's own calls in the window at most. */
  readonly pollOwn: number;
}

export function ceilingsOf(limitPerMin: number, pollBudgetPerMin: number): Ceilings {
  const read = limitPerMin - Math.floor(limitPerMin / 10);
  return {
    mutation: limitPerMin,
    read,
    poll: read,
    pollOwn: Math.min(pollBudgetPerMin, Math.floor(limitPerMin / 2)),
  };
}

/** The RATE_LIMITED error's retryAfter: whole seconds, 1..60. */
export const retryAfterSeconds = (retryInMs: number): number =>
  Math.min(60, Math.max(1, Math.ceil(retryInMs / 1000)));

/** The budget with no limit (UPSTREAM_RATE_LIMIT_PER_MIN=0). */
export const unlimitedBudget = (now: () => number = Date.now): RateBudget => ({
  take: async () => ({ granted: true, remaining: Number.POSITIVE_INFINITY, at: now() }),
});

/** One credential's calls in the window, oldest first (epoch ms). */
export interface WindowCalls {
  readonly calls: number[];
  readonly polls: number[];
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

/** The budget in this process: exact for one replica, and the fallback while Redis is down. */
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
    const w = this.windows.get(digest) ?? { calls: [], polls: [] };
    dropBefore(w.calls, now - this.windowMs);
    dropBefore(w.polls, now - this.windowMs);
    const decision = decide(w, kind, this.ceilings, now, this.windowMs);
    if (decision.granted) this.windows.set(digest, w);
    return decision;
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
}
