// A named lease held by one holder for a while (e.g. "who polls this credential's tunnels"). The
// holder renews it well before `ttlMs` passes; when the holder dies, the lease expires and another
// replica acquires it.

/**
 * What a renewal learnt: extended; lost (it expired, another holder took it); or unanswered (Redis
 * is up but did not answer in time): the lease is then still the holder's until its last answered
 * take or renewal's TTL runs out, and no longer.
 */
export type Renewal = 'renewed' | 'lost' | 'unanswered';

export interface LeaseStore {
  /** True when `holder` holds the lease now (newly, or already: then it is extended); false unanswered. */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease, or says why not (see Renewal). */
  renew(name: string, holder: string, ttlMs: number): Promise<Renewal>;
  /** Gives the lease up; false when `holder` did not hold it. */
  release(name: string, holder: string): Promise<boolean>;
}
