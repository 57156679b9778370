// A named lease held by one holder for a while (e.g. "who polls this credential's tunnels"). The
// holder renews it well before `ttlMs` passes; when the holder dies, the lease expires and another
// replica acquires it.

export interface LeaseStore {
  /** True when `holder` holds the lease now (newly, or already: then it is extended). */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease; false when `holder` no longer holds it (it expired, another took it). */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up; false when `holder` did not hold it. */
  release(name: string, holder: string): Promise<boolean>;
}
