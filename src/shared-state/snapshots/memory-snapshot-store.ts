// Snapshots in this process: one replica's alone, or its own while Redis is down. Dropped when
// Redis is back, which holds the cluster's. Values are kept as given (callers treat them read-only).
import { LRUCache } from 'lru-cache';
import type { SnapshotStore, StoredSnapshot } from './snapshot-store';

interface Held {
  readonly version: number;
  readonly value: unknown;
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
    return held.version === known ? { version: held.version } : held;
  }

  async swap(name: string, expected: number, value: unknown, ttlMs: number): Promise<number> {
    if ((this.snapshots.get(name)?.version ?? 0) !== expected) return 0;
    // Microseconds of this process's clock, and never below the last version given.
    this.last = Math.max(Date.now() * 1000, this.last + 1);
    this.snapshots.set(name, { version: this.last, value }, { ttl: ttlMs });
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
