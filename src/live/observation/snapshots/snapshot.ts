// The last complete observation of one of an account's lists (its tunnels, or its endpoints), and
// how a walk's result is settled against the writes this gateway made while the walk ran. Nothing
// here reads a clock: versions come from the snapshot store (shared-snapshots.ts).

/** What every listed item has: the upstream's id. */
export interface Listed {
  readonly id: string;
}

export interface Snapshot<T extends Listed = Listed> {
  /** Given by the store with each observation or write: above every earlier one, across replicas. */
  readonly version: number;
  readonly observedAt: string;
  /** Newest first, as the upstream lists them. */
  readonly items: readonly T[];
  /**
   * Writes made through the gateway that no walk has confirmed yet: id → the version the write was
   * applied to. A walk whose mark (the version stored when it began) is at most that may have
   * missed the write, so for these ids the snapshot's view wins over that walk's.
   */
  readonly writes?: Readonly<Record<string, number>>;
  /** False when only writes made it, before the account's first complete walk: no observation yet. */
  readonly observed?: boolean;
}

/** A snapshot before the store gives it its version. */
export type Unversioned<T extends Listed = Listed> = Omit<Snapshot<T>, 'version'>;

/** Whether `snapshot` is an observation (subscribers may start from it, the next walk diffs with it). */
export const isObserved = (snapshot: Snapshot | undefined): snapshot is Snapshot =>
  snapshot !== undefined && snapshot.observed !== false;

/**
 * A walk that began when `mark` was the stored version, settled against `base`: ids written onto
 * `mark` or later keep base's view (present, changed or gone); earlier writes the walk confirms.
 */
export function settleWalk<T extends Listed>(
  base: Snapshot<T> | undefined,
  walked: readonly T[],
  mark: number,
): { items: T[]; writes?: Record<string, number> } {
  const pending = Object.entries(base?.writes ?? {}).filter(([, onto]) => onto >= mark);
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
