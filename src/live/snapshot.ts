// The last complete observation of one of an account's lists (its tunnels, or its endpoints), and
// how a walk's result is settled against the writes this gateway made while the walk ran.

/** What every listed item has: the upstream's id. */
export interface Listed {
  readonly id: string;
}

export interface Snapshot<T extends Listed = Listed> {
  /** Grows with each observation or write (clock-based, so it keeps growing across replicas). */
  readonly version: number;
  readonly observedAt: string;
  /** Newest first, as the upstream lists them. */
  readonly items: readonly T[];
  /**
   * Writes made through the gateway that no walk has confirmed yet: id → when (epoch ms). A walk
   * begun before a write may miss it, so for these ids the snapshot's view wins over that walk's.
   */
  readonly writes?: Readonly<Record<string, number>>;
}

/** The version after `previous`: one more, and never behind the clock. */
export const nextVersion = (previous: Snapshot | undefined): number =>
  Math.max((previous?.version ?? 0) + 1, Date.now());

/** The later of two observations of one account. */
export const newest = <T extends Listed>(
  a: Snapshot<T> | undefined,
  b: Snapshot<T> | undefined,
): Snapshot<T> | undefined => (a === undefined ? b : b === undefined || a.version >= b.version ? a : b);

/**
 * A walk begun at `startedAt` (epoch ms), settled against `base`: ids written since then keep
 * base's view (present, changed or gone); writes the walk began after are confirmed and dropped.
 */
export function settleWalk<T extends Listed>(
  base: Snapshot<T> | undefined,
  walked: readonly T[],
  startedAt: number,
): { items: T[]; writes?: Record<string, number> } {
  const pending = Object.entries(base?.writes ?? {}).filter(([, at]) => at >= startedAt);
  if (base === undefined || pending.length === 0) return { items: [...walked] };
  const ids = new Set(pending.map(([id]) => id));
  const kept = base.items.filter((item) => ids.has(item.id));
  const byId = new Map(kept.map((item) => [item.id, item]));
  const items: T[] = [];
  // Written items the walk missed are the newest: they go first.
  const walkedIds = new Set(walked.map((item) => item.id));
  for (const item of kept) if (!walkedIds.has(item.id)) items.push(item);
  for (const item of walked) {
    if (!ids.has(item.id)) items.push(item);
    else if (byId.has(item.id)) items.push(byId.get(item.id) as T);
  }
  return { items, writes: Object.fromEntries(pending) };
}
