// What the demand planner adds up (plan.ts): a plan's calls, writes and objects, the position a
// value stands at (how many objects, in how many arrivals), and the two ways plans combine.
import type { ObservationJoins } from './observation';

export interface Plan {
  /** Upstream calls at most: reads and writes. */
  readonly calls: number;
  /** Of which writes (mutations). */
  readonly writes: number;
  /** Objects the answer holds at most (connection, edge and page-info wrappers not counted). */
  readonly objects: number;
  /** A subscription's: how its events are joined, per observation (`calls` is counted in). */
  readonly stream?: ObservationJoins;
}

export const NOTHING: Plan = { calls: 0, writes: 0, objects: 0 };

/** At most `n` objects stand here, arriving in at most `groups` separate batches. */
export interface Position {
  readonly n: number;
  readonly groups: number;
}

export const add = (a: Plan, b: Plan): Plan => ({
  calls: a.calls + b.calls,
  writes: a.writes + b.writes,
  objects: a.objects + b.objects,
});
export const larger = (a: Plan, b: Plan): Plan => ({
  calls: Math.max(a.calls, b.calls),
  writes: Math.max(a.writes, b.writes),
  objects: Math.max(a.objects, b.objects),
});
