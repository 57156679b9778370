// The live poller's last complete observation per account and list (and the interest marks beside
// them), so a replica taking the poll over does not replay every item as new. Values are plain JSON
// and hold no credential. A snapshot carries a version the store gives it: from the store's own clock
// and its last version (never a replica's clock), and only when the version it replaces is still
// the one the writer read (compare-and-set), so no write is lost and no version goes down.

/** A stored snapshot: its version, and its value unless the reader already holds that version. */
export interface StoredSnapshot {
  readonly version: number;
  /** Absent when the version is the one the reader said it knows. */
  readonly value?: unknown;
}

export interface SnapshotStore {
  /** A plain value (interest marks). */
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** The snapshot stored under `name`; its value left out when its version is `known`. */
  read(name: string, known: number): Promise<StoredSnapshot | undefined>;
  /**
   * Stores `value` under `name` with a new version, above every earlier one, when the stored version
   * is still `expected` (0: none stored); resolves the new version, or 0 when another write came first.
   */
  swap(name: string, expected: number, value: unknown, ttlMs: number): Promise<number>;
}
