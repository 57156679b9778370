// The gateway's own upstream budget per credential digest: at most `limitPerMin` calls in any
// rolling window (60 s), across every replica when it lives in Redis. Who may claim a slot:
//   - a mutation, while fewer than `limit` calls are in the window;
//   - a client read, while fewer than `limit - reserve` are (reserve = floor(limit / 10): the last
//     tenth is kept for mutations, so a dashboard's reads never lock its user out of writing);
//   - the live poller, under the same ceiling as reads and only while it has fewer than
//     min(LIVE_POLL_BUDGET_PER_MIN, floor(limit / 2)) calls of its own in the window: clients always
//     keep at least half of the budget however busy the poller is.
// A refusal says in how many ms a slot frees for that kind, so a caller can wait when that fits
// its deadline, or fail at once with RATE_LIMITED and retryAfter = retryAfterFromMs(ms).
// An admitted operation reserves its predicted calls: holds that count in the window as calls do
// (stamped when reserved, so a hold nobody releases leaves with the window), each call it makes
// turning one hold into a call stamped when made; when it ends, the holds it did not use go.
// Each decision says where the credential stands (standingOf): the calls left in its window, the
// limit less the calls made in it (holds are no calls), and each kind's share, spent and left.
import { MINUTE_MS } from '../../time';

export type ClaimKind = 'mutation' | 'read' | 'poll';

export type BudgetDecision =
  | {
      readonly granted: true;
      /** Calls of this kind still allowed in the window after this one. */
      readonly remaining: number;
      /** When the slot was taken, on the budget's clock (epoch ms). */
      readonly at: number;
      readonly standing: Standing;
    }
  | {
      readonly granted: false;
      /** Milliseconds until a slot for this kind frees (at least 1). */
      readonly retryInMs: number;
      readonly standing: Standing;
    };

/** One kind's part of the window: the calls it made there, and those it may still claim now. */
interface Share {
  readonly spent: number;
  readonly remaining: number;
}

/** Where a credential stands in its window, as extensions.upstreamBudget reports it. */
export interface Standing {
  /** The limit less the calls made in the window, by every replica sharing it (holds are no calls). */
  readonly remaining: number;
  /** Client reads, writes (mutations), the live share (the poller's walks, live events' joins). */
  readonly shares: { readonly reads: Share; readonly writes: Share; readonly live: Share };
}

/** What a window holds: the calls made, by kind, and the holds of admitted operations still unused. */
export interface WindowCounts {
  readonly reads: number;
  readonly writes: number;
  readonly polls: number;
  readonly held: number;
}

/**
 * The standing of a window: each share's room counts every hold but `own` (the claiming operation's
 * unused holds, dropped when it ends), so an answer says what its client may claim next.
 */
export function standingOf(w: WindowCounts, c: Ceilings, own = 0): Standing {
  const spent = w.reads + w.writes + w.polls;
  const used = spent + Math.max(0, w.held - own);
  const room = (ceiling: number) => Math.max(0, ceiling - used);
  return {
    remaining: Math.max(0, c.mutation - spent),
    shares: {
      reads: { spent: w.reads, remaining: room(c.read) },
      writes: { spent: w.writes, remaining: room(c.mutation) },
      live: { spent: w.polls, remaining: Math.min(room(c.poll), Math.max(0, c.pollOwn - w.polls)) },
    },
  };
}

export interface RateBudget {
  /**
   * Claims one call. With `hold` (nextHold), a hold of that reservation still in the window becomes
   * the call, whatever the ceiling (its room was judged when reserved); else a slot is claimed.
   */
  take(digest: string, kind: ClaimKind, hold?: Hold): Promise<BudgetDecision>;
  /**
   * Holds the demand's calls in the window at once when they all fit (the ceilings of waitFor:
   * the writes' whole window for all, the reads' share for the reads), or refuses with the wait.
   */
  reserve(digest: string, demand: Demand): Promise<ReserveDecision>;
  /** Drops the reservation's holds still unused (its calls stay counted); unknown ones are ignored. */
  release(reservation: Reservation): Promise<void>;
  /**
   * Milliseconds until `calls` more claims of kind 'poll' would all be granted in the current
   * window (0: now), so the poller waits once before a walk instead of being refused midway.
   * Claims nothing; `calls` counts as at least 1 and at most the poller's share.
   */
  pollWait(digest: string, calls: number): Promise<number>;
  /**
   * Milliseconds until `calls` more claims of a client's kind would all be granted now (0: now), so
   * an operation predicted to make them is refused up front rather than halfway. Claims nothing;
   * `calls` counts as at least 1 and at most the kind's ceiling.
   */
  waitFor(digest: string, kind: ClientKind, calls: number): Promise<number>;
}

/** The claims of clients' operations (the poller's are 'poll'). */
export type ClientKind = Exclude<ClaimKind, 'poll'>;

/** What an operation is predicted to claim: `calls` in all, `writes` of them mutations. */
export interface Demand {
  readonly calls: number;
  readonly writes: number;
}

/** An operation's holds in one credential's window; `used` counts the holds its calls took. */
export interface Reservation {
  /** Unique across replicas: names its holds (in Redis, `${id}:${index}`). */
  readonly id: string;
  readonly digest: string;
  /** Holds placed (the demand, at most the ceiling). */
  readonly held: number;
  used: number;
}

/** One hold of a reservation, named for the call about to take it. */
export interface Hold {
  readonly id: string;
  /** 1..held */
  readonly index: number;
  /** The reservation's holds left unused after this one (its standing does not count them). */
  readonly unused: number;
}

export type ReserveDecision =
  | { readonly granted: true; readonly reservation: Reservation }
  | { readonly granted: false; readonly retryInMs: number };

/** The next hold a call of the reservation takes (none left, or none: the call claims a slot). */
export function nextHold(reservation: Reservation | undefined): Hold | undefined {
  if (reservation === undefined || reservation.used >= reservation.held) return undefined;
  reservation.used += 1;
  return { id: reservation.id, index: reservation.used, unused: reservation.held - reservation.used };
}

/**
 * How a demand is judged: how many holds it places, and the caps the window may hold before them
 * for all its calls and for its reads (cap - n + 1 as whenFreeFor counts; Infinity: no cap).
 */
export function holdsOf(demand: Demand, c: Ceilings): { holds: number; allCap: number; readCap: number } {
  const reads = demand.calls - demand.writes;
  const all = demand.writes > 0 ? clientCallsWithin(demand.calls, c.mutation) : 0;
  const read = reads > 0 ? clientCallsWithin(reads, c.read) : 0;
  return {
    holds: Math.max(all, read),
    allCap: all > 0 ? c.mutation - all + 1 : Number.POSITIVE_INFINITY,
    readCap: read > 0 ? c.read - read + 1 : Number.POSITIVE_INFINITY,
  };
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

/**
 * The poller's calls per window at most, what it paces its walks by: its share of the budget, or
 * LIVE_POLL_BUDGET_PER_MIN alone when the budget is off (UPSTREAM_RATE_LIMIT_PER_MIN=0).
 */
export const pollShareOf = (limitPerMin: number, pollBudgetPerMin: number): number =>
  limitPerMin === 0 ? Math.max(0, pollBudgetPerMin) : ceilingsOf(limitPerMin, pollBudgetPerMin).pollOwn;

/** `calls` as pollWait counts it: at least one claim, at most the poller's share. */
export const pollCallsWithin = (calls: number, share: number): number =>
  Math.max(1, Math.min(Math.floor(calls), share));

/** `calls` as waitFor counts them: at least one claim, at most the kind's ceiling. */
export const clientCallsWithin = (calls: number, ceiling: number): number =>
  Math.max(1, Math.min(Math.floor(calls), ceiling));

/** The RATE_LIMITED error's retryAfter from a wait in ms: whole seconds, 1..60. */
export const retryAfterFromMs = (retryInMs: number): number =>
  Math.min(60, Math.max(1, Math.ceil(retryInMs / 1000)));
