// "Who polls this credential": one poller per credential. The lease lives in the shared lease store
// (Redis, or this process): one replica holds it, renews it while it polls, and another replica
// takes over once it expires (the holder died) or is released (the holder's subscribers left).
import { randomUUID } from 'node:crypto';
import type { LeaseStore, Renewal } from '../../../shared-state';

export interface PollLease {
  /** How long the lease lasts from a take or renewal the store answered. */
  readonly ttlMs: number;
  /** Renew every this many ms while holding (Infinity: never needed). */
  readonly renewMs: number;
  /** True when this process may start polling the credential now (the lease is free or already its own). */
  take(digest: string): Promise<boolean>;
  /** Whether this process still holds the lease it took (now extended), or the store did not say. */
  renew(digest: string): Promise<Renewal>;
  release(digest: string): Promise<void>;
}

/** The lease in the shared lease store, named by the credential digest (never the credential). */
export class StoredLease implements PollLease {
  readonly renewMs: number;
  /** This process among the replicas; random, so a restarted replica never inherits a lease. */
  private readonly holder = randomUUID();

  constructor(
    private readonly leases: LeaseStore,
    readonly ttlMs: number,
  ) {
    // Renewed well before it expires: two renewals may fail (a slow Redis) before another replica may take it.
    this.renewMs = Math.max(1, Math.floor(ttlMs / 3));
  }

  take(digest: string): Promise<boolean> {
    return this.leases.acquire(leaseName(digest), this.holder, this.ttlMs);
  }

  renew(digest: string): Promise<Renewal> {
    return this.leases.renew(leaseName(digest), this.holder, this.ttlMs);
  }

  async release(digest: string): Promise<void> {
    await this.leases.release(leaseName(digest), this.holder);
  }
}

const leaseName = (digest: string) => `live-poll:${digest}`;
