// The live poller's last complete observation per account and list (and the interest marks beside
// them), so a replica taking the poll over does not replay every item as new. Values are plain JSON
// and hold no credential. A snapshot is a small head and its items by id; it carries a version the
// store gives it: from the store's own clock and its last version (never a replica's clock), and
// only when the version it replaces is still the one the writer read (compare-and-set), so no write
// is lost and no version goes down. A writer hands over what changed, not the whole snapshot, and a
// reader that knows an earlier version gets the changes since it (in order), not a whole copy,
// unless it is too far behind.

/** One step from a version to the next: the head whole, the items added or changed, the ids gone. */
export interface SnapshotChange {
  /** Everything but the items (small). */
  readonly head: unknown;
  /** Items added or changed, by id. */
  readonly upserts: ReadonlyArray<readonly [id: string, item: unknown]>;
  /** Ids of the items gone. */
  readonly deletes: readonly string[];
}

/** A stored snapshot, as a reader that knows some version of it gets it. */
export type StoredSnapshot =
  /** The reader's version is the stored one. */
  | { readonly version: number; readonly same: true }
  /** The snapshot whole: `upserts` holds every item, `deletes` is empty. */
  | { readonly version: number; readonly whole: SnapshotChange }
  /** The changes from the reader's version to `version`, oldest first. */
  | { readonly version: number; readonly changes: readonly SnapshotChange[] };

export interface SnapshotStore {
  /** A plain value (interest marks). */
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** The snapshot stored under `name`, for a reader that holds version `known` of it (0: none). */
  read(name: string, known: number): Promise<StoredSnapshot | undefined>;
  /**
   * Applies `change` to the snapshot stored under `name` with a new version, above every earlier
   * one, when the stored version is still `expected`; `expected` 0 (none stored) makes `change` the
   * whole snapshot. Resolves the new version, or 0 when another write came first.
   */
  swap(name: string, expected: number, change: SnapshotChange, ttlMs: number): Promise<number>;
}
