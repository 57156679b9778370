// A named lease held by one holder for a while (e.g. "who polls this credential's tunnels"). The
// holder renews it well before `ttlMs` passes; when the holder dies, the lease expires and another
// replica acquires it.
import { LRUCache } from 'lru-cache';

export interface LeaseStore {
  /** True when `holder` holds the lease now (newly, or already: then it is extended). */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease; false when `holder` no longer holds it (it expired, another took it). */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up; false when `holder` did not hold it. */
  release(name: string, holder: string): Promise<boolean>;
}

export class MemoryLeaseStore implements LeaseStore {
  private readonly holders: LRUCache<string, string>;

  constructor(options: { maxLeases?: number } = {}) {
    this.holders = new LRUCache({ max: options.maxLeases ?? 10_000, ttlAutopurge: false });
  }

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const current = this.holders.get(name);
    if (current !== undefined && current !== holder) return false;
    this.holders.set(name, holder, { ttl: ttlMs });
    return true;
  }

  async renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    if (this.holders.get(name) !== holder) return false;
    this.holders.set(name, holder, { ttl: ttlMs });
    return true;
  }

  async release(name: string, holder: string): Promise<boolean> {
    if (this.holders.get(name) !== holder) return false;
    this.holders.delete(name);
    return true;
  }

  /** Forgets every lease (Redis is back: it decides again who holds what). */
  clear(): void {
    this.holders.clear();
  }
}
