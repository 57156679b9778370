// Where observations are kept: the shared snapshot store (Redis, per process while it is down; in
// this process without Redis). A snapshot outlives its poller: the poller that takes an account
// over, here or on another replica, diffs against it, and includeCurrent on any replica starts from it.
import type { SnapshotStore } from '../shared-state';
import { MINUTE_MS } from '../time';
import type { LiveKind } from './kinds';
import type { Snapshot } from './snapshot';

/**
 * How long a snapshot is kept after it was last stored: well past any takeover (a lease TTL) and the
 * longest backoff (60 s), so a successor always diffs against what subscribers last saw; an account
 * nobody watched for that long starts again from a fresh observation.
 */
export const snapshotTtlMs = (leaseTtlMs: number): number => Math.max(10 * MINUTE_MS, 4 * leaseTtlMs);

const isSnapshot = (value: unknown): value is Snapshot => {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<Record<keyof Snapshot, unknown>>;
  return typeof s.version === 'number' && typeof s.observedAt === 'string' && Array.isArray(s.items);
};

/** Tunnels keep the key they always had; other kinds are named before the digest. */
const keyOf = (kind: LiveKind, digest: string) => (kind === 'tunnels' ? digest : `${kind}:${digest}`);

export class Snapshots {
  constructor(
    private readonly shared: SnapshotStore,
    private readonly ttlMs: number,
  ) {}

  async get(kind: LiveKind, digest: string): Promise<Snapshot | undefined> {
    const value = await this.shared.get(keyOf(kind, digest));
    // Anything else (another gateway version's format) is no snapshot: the next walk is a baseline.
    return isSnapshot(value) ? value : undefined;
  }

  async set(kind: LiveKind, digest: string, snapshot: Snapshot): Promise<void> {
    await this.shared.set(keyOf(kind, digest), snapshot, this.ttlMs);
  }
}
