// The budget when UPSTREAM_RATE_LIMIT_PER_MIN=0: client reads and mutations are never counted or
// refused, but the live poller still keeps to LIVE_POLL_BUDGET_PER_MIN calls per credential and
// rolling window, so turning the gateway's limit off does not let the poller spend the upstream's.
// Counted in this process even with Redis: one replica polls a credential at a time (the poll
// lease), so a per-process count holds the share but for a lease moving between replicas.
import { LRUCache } from 'lru-cache';
import {
  type BudgetDecision,
  type ClaimKind,
  type Demand,
  pollCallsWithin,
  type RateBudget,
  type ReserveDecision,
  type Standing,
  WINDOW_MS,
} from './rate-budget';
import { dropBefore, waitUntil, whenFree, whenFreeFor } from './rolling-window';

export interface UnlimitedRateBudgetOptions {
  /** LIVE_POLL_BUDGET_PER_MIN: the poller's calls per window and credential. */
  readonly pollBudgetPerMin: number;
  readonly windowMs?: number;
  /** Credentials tracked at most (default 10 000). */
  readonly maxDigests?: number;
  readonly now?: () => number;
}

export class UnlimitedRateBudget implements RateBudget {
  private readonly share: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  /** The poller's calls per credential, oldest first; only polls are ever stored. */
  private readonly polls: LRUCache<string, number[]>;

  constructor(options: UnlimitedRateBudgetOptions) {
    this.share = Math.max(0, options.pollBudgetPerMin);
    this.windowMs = options.windowMs ?? WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.polls = new LRUCache({ max: options.maxDigests ?? 10_000, ttl: this.windowMs });
  }

  async take(digest: string, kind: ClaimKind): Promise<BudgetDecision> {
    const now = this.now();
    const polls = this.current(digest, now);
    if (kind !== 'poll') {
      return { granted: true, remaining: Number.POSITIVE_INFINITY, at: now, standing: this.standing(polls) };
    }
    const at = whenFree(polls, this.share, now, this.windowMs);
    if (at > now) return { granted: false, retryInMs: waitUntil(at, now), standing: this.standing(polls) };
    polls.push(now);
    this.polls.set(digest, polls);
    return { granted: true, remaining: this.share - polls.length, at: now, standing: this.standing(polls) };
  }

  /** Only the live share is counted: the clients' are endless (Infinity), as is what is left in all. */
  private standing(polls: readonly number[]): Standing {
    const endless = { spent: 0, remaining: Number.POSITIVE_INFINITY };
    return {
      remaining: Number.POSITIVE_INFINITY,
      shares: {
        reads: endless,
        writes: endless,
        live: { spent: polls.length, remaining: Math.max(0, this.share - polls.length) },
      },
    };
  }

  async pollWait(digest: string, calls: number): Promise<number> {
    const now = this.now();
    const n = pollCallsWithin(calls, this.share);
    return waitUntil(whenFreeFor(this.current(digest, now), this.share, n, now, this.windowMs), now);
  }

  /** Clients' calls are never counted with the limit off: room now. */
  async waitFor(): Promise<number> {
    return 0;
  }

  /** Nor held: a reservation of no holds, its calls granted as they come. */
  async reserve(digest: string, _demand: Demand): Promise<ReserveDecision> {
    return { granted: true, reservation: { id: 'unlimited', digest, held: 0, used: 0 } };
  }

  async release(): Promise<void> {}

  private current(digest: string, now: number): number[] {
    const polls = this.polls.get(digest) ?? [];
    dropBefore(polls, now - this.windowMs);
    return polls;
  }
}
