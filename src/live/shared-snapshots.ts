// Snapshots in the shared snapshot store (Redis, per process while it is down): the poller that
// takes a credential over diffs against the last one its predecessor stored, and includeCurrent on
// any replica starts from it. A snapshot outlives its poller, so a successor finds it.
import type { SnapshotStore as SharedStore } from '../shared-state';
import { MINUTE_MS } from '../time';
import type { Snapshot, SnapshotStore } from './snapshot';

/**
 * How long a snapshot is kept after it was last stored: well past any takeover (a lease TTL) and the
 * longest backoff (60 s), so a successor always diffs against what subscribers last saw; an account
 * nobody watched for that long starts again from a fresh observation.
 */
export const snapshotTtlMs = (leaseTtlMs: number): number => Math.max(10 * MINUTE_MS, 4 * leaseTtlMs);

const isSnapshot = (value: unknown): value is Snapshot => {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<Record<keyof Snapshot, unknown>>;
  return typeof s.version === 'number' && typeof s.observedAt === 'string' && Array.isArray(s.tunnels);
};

export class SharedSnapshotStore implements SnapshotStore {
  constructor(
    private readonly shared: SharedStore,
    private readonly ttlMs: number,
  ) {}

  async get(digest: string): Promise<Snapshot | undefined> {
    const value = await this.shared.get(digest);
    // Anything else (another gateway version's format) is no snapshot: the next walk is a baseline.
    return isSnapshot(value) ? value : undefined;
  }

  async set(digest: string, snapshot: Snapshot): Promise<void> {
    await this.shared.set(digest, snapshot, this.ttlMs);
  }

  /** Kept: the next poller of the credential, here or on another replica, diffs against it. */
  async retire(): Promise<void> {}
}
