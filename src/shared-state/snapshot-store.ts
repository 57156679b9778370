// The live poller's last complete observation per credential digest (the list of tunnels it
// diffs the next walk against), so a replica taking the poll over does not replay every tunnel as
// new. Values are plain JSON and hold no credential.
import { LRUCache } from 'lru-cache';

export interface SnapshotStore {
  get(digest: string): Promise<unknown>;
  set(digest: string, snapshot: unknown, ttlMs: number): Promise<void>;
}

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
}
