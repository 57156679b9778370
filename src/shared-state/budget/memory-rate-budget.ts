// The budget in this process (rules in rate-budget.ts): exact for one replica, and what a replica
// counts with while Redis is down, with its share of the limit; what it granted then is handed
// over to Redis when Redis is back, so the cluster's windows count it. A reservation's holds are
// entries of the window stamped when reserved, so every rule counts them as calls.
import { LRUCache } from 'lru-cache';
import {
  type BudgetDecision,
  type Ceilings,
  type ClaimKind,
  type ClientKind,
  ceilingsOf,
  clientCallsWithin,
  type Demand,
  type Hold,
  holdsOf,
  pollCallsWithin,
  type RateBudget,
  type RateBudgetOptions,
  type Reservation,
  type ReserveDecision,
  standingOf,
  WINDOW_MS,
  type WindowCounts,
} from './rate-budget';
import { dropBefore, waitUntil, whenFree, whenFreeFor } from './rolling-window';

/** One credential's calls in the window, oldest first (epoch ms): all, and those of each kind. */
export interface WindowCalls {
  readonly calls: number[];
  readonly polls: number[];
  readonly reads: number[];
  readonly writes: number[];
}

/** The list of a kind's calls in the window. */
const ofKind = (w: WindowCalls, kind: ClaimKind): number[] =>
  kind === 'poll' ? w.polls : kind === 'read' ? w.reads : w.writes;

/** A reservation's holds still unused: `left` entries of `calls` equal to `at`. */
interface Held {
  readonly at: number;
  left: number;
}

/** The window as kept here: its `calls` hold the reservations' holds too. */
interface Window extends WindowCalls {
  readonly holds: Map<string, Held>;
}

/** Takes `count` entries equal to `at` out of `times` (sorted, so they sit together). */
function removeAt(times: number[], at: number, count: number): void {
  const first = times.indexOf(at);
  if (first >= 0 && count > 0) times.splice(first, count);
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

/** The window's counts: its calls by kind, and the holds (entries of `calls` that are no call). */
function countsOf(w: WindowCalls): WindowCounts {
  const reads = w.reads.length;
  const writes = w.writes.length;
  const polls = w.polls.length;
  return { reads, writes, polls, held: w.calls.length - reads - writes - polls };
}

/** The decision for a window already cleared of expired calls; shared with nothing else. */
function decide(
  w: WindowCalls,
  kind: ClaimKind,
  c: Ceilings,
  now: number,
  windowMs: number,
  own: number,
): BudgetDecision {
  const ceiling = c[kind];
  // When the call that must leave the window before this claim fits leaves it.
  let at = whenFree(w.calls, ceiling, now, windowMs);
  if (kind === 'poll') at = Math.max(at, whenFree(w.polls, c.pollOwn, now, windowMs));
  if (at > now) {
    const standing = standingOf(countsOf(w), c, own);
    return { granted: false, retryInMs: Math.max(1, Math.ceil(at - now)), standing };
  }
  w.calls.push(now);
  ofKind(w, kind).push(now);
  const left = ceiling - w.calls.length;
  return {
    granted: true,
    remaining: kind === 'poll' ? Math.min(left, c.pollOwn - w.polls.length) : left,
    at: now,
    standing: standingOf(countsOf(w), c, own),
  };
}

/** Turns one unused hold of reservation `id` into a call of `kind` made now; false when none is left. */
function takeHold(w: Window, id: string, kind: ClaimKind, now: number): boolean {
  const held = w.holds.get(id);
  if (held === undefined) return false;
  held.left -= 1;
  if (held.left === 0) w.holds.delete(id);
  removeAt(w.calls, held.at, 1);
  w.calls.push(now);
  ofKind(w, kind).push(now);
  return true;
}

export class MemoryRateBudget implements RateBudget {
  private readonly ceilings: Ceilings;
  private readonly windowMs: number;
  private readonly now: () => number;
  /** A window lives `windowMs` after its last call, when it is empty by definition. */
  private readonly windows: LRUCache<string, Window>;
  /** Names this process's reservations (the Redis side names its own otherwise). */
  private sequence = 0;

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

  async take(digest: string, kind: ClaimKind, hold?: Hold): Promise<BudgetDecision> {
    const now = this.now();
    const w = this.current(digest, now);
    const own = hold?.unused ?? 0;
    if (hold !== undefined && takeHold(w, hold.id, kind, now)) {
      this.windows.set(digest, w);
      const remaining = Math.max(0, this.ceilings[kind] - w.calls.length);
      return { granted: true, remaining, at: now, standing: standingOf(countsOf(w), this.ceilings, own) };
    }
    const decision = decide(w, kind, this.ceilings, now, this.windowMs, own);
    if (decision.granted) this.windows.set(digest, w);
    return decision;
  }

  async reserve(digest: string, demand: Demand): Promise<ReserveDecision> {
    const now = this.now();
    const w = this.current(digest, now);
    const { holds, allCap, readCap } = holdsOf(demand, this.ceilings);
    const at = Math.max(
      whenFree(w.calls, allCap, now, this.windowMs),
      whenFree(w.calls, readCap, now, this.windowMs),
    );
    if (at > now) return { granted: false, retryInMs: waitUntil(at, now) };
    this.sequence += 1;
    const reservation: Reservation = { id: `m${this.sequence}`, digest, held: holds, used: 0 };
    if (holds > 0) {
      for (let i = 0; i < holds; i += 1) w.calls.push(now);
      w.holds.set(reservation.id, { at: now, left: holds });
      this.windows.set(digest, w);
    }
    return { granted: true, reservation };
  }

  async release(reservation: Reservation): Promise<void> {
    const w = this.windows.get(reservation.digest);
    const held = w?.holds.get(reservation.id);
    if (w === undefined || held === undefined) return;
    w.holds.delete(reservation.id);
    if (held.at > this.now() - this.windowMs) removeAt(w.calls, held.at, held.left);
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
      // Holds are no calls: Redis gets what was granted; a running operation's next calls claim there.
      for (const held of w.holds.values()) removeAt(w.calls, held.at, held.left);
      for (const times of [w.calls, w.polls, w.reads, w.writes]) dropBefore(times, edge);
      if (w.calls.length > 0)
        out.set(digest, { calls: w.calls, polls: w.polls, reads: w.reads, writes: w.writes });
    }
    this.windows.clear();
    return out;
  }

  /** Redis is back: it records what was granted here during the outage. */
  async handOver(redis: WindowRecorder): Promise<void> {
    for (const [digest, window] of this.drain()) await redis.record(digest, window);
  }

  /** The credential's window, cleared of the calls that left it. */
  private current(digest: string, now: number): Window {
    const w = this.windows.get(digest) ?? { calls: [], polls: [], reads: [], writes: [], holds: new Map() };
    const edge = now - this.windowMs;
    for (const times of [w.calls, w.polls, w.reads, w.writes]) dropBefore(times, edge);
    // Holds that left the window with their entries: a reservation nobody released.
    for (const [id, held] of w.holds) if (held.at <= edge) w.holds.delete(id);
    return w;
  }
}
