// Snapshots in this process: one replica's alone, or its own while Redis is down. Dropped when
// Redis is back, which holds the cluster's.
import { LRUCache } from 'lru-cache';
import type { SnapshotStore } from './snapshot-store';

export class MemorySnapshotStore implements SnapshotStore {
  private readonly snapshots: LRUCache<string, { readonly value: unknown }>;

  constructor(options: { maxDigests?: number } = {}) {
    this.snapshots = new LRUCache({ max: options.maxDigests ?? 10_000 });
  }

  async get(digest: string): Promise<unknown> {
    return this.snapshots.get(digest)?.value;
  }

  async set(digest: string, snapshot: unknown, ttlMs: number): Promise<void> {
    this.snapshots.set(digest, { value: snapshot }, { ttl: ttlMs });
  }

  /** Forgets every snapshot (Redis is back and holds the cluster's). */
  clear(): void {
    this.snapshots.clear();
  }

  handOver(): void {
    this.clear();
  }
}
