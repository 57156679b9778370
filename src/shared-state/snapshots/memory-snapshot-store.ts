// Snapshots in this process: one replica's alone, or its own while Redis is down. Dropped when
// Redis is back, which holds the cluster's. Values are kept as given (callers treat them read-only);
// a reader that is behind gets the snapshot whole, which costs nothing here (no copy, no transfer).
import { LRUCache } from 'lru-cache';
import type { SnapshotChange, SnapshotStore, StoredSnapshot } from './snapshot-store';

interface Held {
  readonly version: number;
  readonly head: unknown;
  readonly items: ReadonlyMap<string, unknown>;
}

export class MemorySnapshotStore implements SnapshotStore {
  private readonly values: LRUCache<string, { readonly value: unknown }>;
  private readonly snapshots: LRUCache<string, Held>;
  /** The last version given: versions grow in this process even past an expired snapshot. */
  private last = 0;

  constructor(options: { maxDigests?: number } = {}) {
    this.values = new LRUCache({ max: options.maxDigests ?? 10_000 });
    this.snapshots = new LRUCache({ max: options.maxDigests ?? 10_000 });
  }

  async get(key: string): Promise<unknown> {
    return this.values.get(key)?.value;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.values.set(key, { value }, { ttl: ttlMs });
  }

  async read(name: string, known: number): Promise<StoredSnapshot | undefined> {
    const held = this.snapshots.get(name);
    if (held === undefined) return undefined;
    if (held.version === known) return { version: held.version, same: true };
    return { version: held.version, whole: { head: held.head, upserts: [...held.items], deletes: [] } };
  }

  async swap(name: string, expected: number, change: SnapshotChange, ttlMs: number): Promise<number> {
    const held = this.snapshots.get(name);
    if ((held?.version ?? 0) !== expected) return 0;
    // A new map: a reader's whole copy (read above) never changes under it.
    const items = new Map(expected === 0 ? [] : held?.items);
    for (const id of change.deletes) items.delete(id);
    for (const [id, item] of change.upserts) items.set(id, item);
    // Microseconds of this process's clock, and never below the last version given.
    this.last = Math.max(Date.now() * 1000, this.last + 1);
    this.snapshots.set(name, { version: this.last, head: change.head, items }, { ttl: ttlMs });
    return this.last;
  }

  /** Forgets every snapshot (Redis is back and holds the cluster's). */
  clear(): void {
    this.values.clear();
    this.snapshots.clear();
  }

  handOver(): void {
    this.clear();
  }
}
