// Leases when Redis did not answer. Down (the connection lost): this process's leases, each
// replica polling for its own subscribers. Up, with one command unanswered (a slow Redis, or a
// replica too busy to read the answer within REDIS_TIMEOUT_MS): Redis may well hold the lease for
// another replica, so nothing is decided here: no lease is taken, one held is `unanswered` (its
// holder keeps it while it is surely still valid), and none is given up (it expires).
import type { LeaseStore, Renewal } from './lease-store';
import type { MemoryLeaseStore } from './memory-lease-store';

export class OutageLeaseStore implements LeaseStore {
  constructor(
    private readonly memory: MemoryLeaseStore,
    private readonly redis: { readonly up: boolean },
  ) {}

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return !this.redis.up && this.memory.acquire(name, holder, ttlMs);
  }

  async renew(name: string, holder: string, ttlMs: number): Promise<Renewal> {
    return this.redis.up ? 'unanswered' : this.memory.renew(name, holder, ttlMs);
  }

  async release(name: string, holder: string): Promise<boolean> {
    return !this.redis.up && this.memory.release(name, holder);
  }

  handOver(): void {
    this.memory.handOver();
  }
}
