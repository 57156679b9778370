// Leases in this process: one replica's alone, or every replica's own while Redis is down. Nothing
// is handed to Redis when it is back: the cluster decides again, and a holder's renew says whether
// it still holds the lease.
import { LRUCache } from 'lru-cache';
import type { LeaseStore, Renewal } from './lease-store';

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

  async renew(name: string, holder: string, ttlMs: number): Promise<Renewal> {
    if (this.holders.get(name) !== holder) return 'lost';
    this.holders.set(name, holder, { ttl: ttlMs });
    return 'renewed';
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

  handOver(): void {
    this.clear();
  }
}
