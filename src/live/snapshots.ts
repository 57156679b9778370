// Where observations are kept: the shared snapshot store (Redis, per process while it is down; in
// this process without Redis), and one parsed copy of each account's latest snapshot in this process,
// shared read-only by every subscriber and write here: a read asks the store only whether the version
// moved, and parses the snapshot again only when it did. A snapshot outlives its poller: the poller
// that takes an account over, here or on another replica, diffs against it, and includeCurrent on any
// replica starts from it. Past LIVE_MAX_SNAPSHOT_BYTES a snapshot is not stored (SnapshotTooLarge).
import { LRUCache } from 'lru-cache';
import type { SnapshotStore } from '../shared-state';
import { MINUTE_MS } from '../time';
import type { LiveKind } from './kinds';
import { isObserved, type Snapshot, type Unversioned } from './snapshot';

/**
 * How long a snapshot is kept after it was last stored: well past any takeover (a lease TTL) and the
 * longest backoff (60 s), so a successor always diffs against what subscribers last saw; an account
 * nobody watched for that long starts again from a fresh observation.
 */
export const snapshotTtlMs = (leaseTtlMs: number): number => Math.max(10 * MINUTE_MS, 4 * leaseTtlMs);

/** An account's list is larger than LIVE_MAX_SNAPSHOT_BYTES: it is neither walked on nor stored. */
export class SnapshotTooLarge extends Error {
  constructor(
    readonly kind: LiveKind,
    readonly maxBytes: number,
  ) {
    super(`the ${kind} snapshot exceeds ${maxBytes} bytes`);
  }
}

const isUnversioned = (value: unknown): value is Unversioned => {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<Record<keyof Snapshot, unknown>>;
  return typeof s.observedAt === 'string' && Array.isArray(s.items);
};

const nameOf = (kind: LiveKind, digest: string) => `${kind}:${digest}`;

export class Snapshots {
  /** The latest snapshot read or stored here, per list and account: one parsed copy in the process. */
  private readonly parsed = new LRUCache<string, Snapshot>({ max: 1_000 });
  private readonly reading = new Map<string, Promise<Snapshot | undefined>>();

  constructor(
    private readonly shared: SnapshotStore,
    private readonly ttlMs: number,
    /** LIVE_MAX_SNAPSHOT_BYTES. */
    readonly maxBytes: number,
  ) {}

  /** The latest snapshot (shared: never change it), or undefined; concurrent reads share one. */
  get(kind: LiveKind, digest: string): Promise<Snapshot | undefined> {
    const name = nameOf(kind, digest);
    let reading = this.reading.get(name);
    if (reading === undefined) {
      reading = this.read(name).finally(() => this.reading.delete(name));
      this.reading.set(name, reading);
    }
    return reading;
  }

  /** The latest observation (not a snapshot only writes made before the first walk). */
  async observed(kind: LiveKind, digest: string): Promise<Snapshot | undefined> {
    const snapshot = await this.get(kind, digest);
    return isObserved(snapshot) ? snapshot : undefined;
  }

  /**
   * Stores `next` as the successor of `base` (undefined: none stored): the stored snapshot with its
   * new version, or undefined when another write came first (read again and retry). Throws
   * SnapshotTooLarge past the byte bound.
   */
  async swap(
    kind: LiveKind,
    digest: string,
    base: Snapshot | undefined,
    next: Unversioned,
  ): Promise<Snapshot | undefined> {
    if (Buffer.byteLength(JSON.stringify(next)) > this.maxBytes)
      throw new SnapshotTooLarge(kind, this.maxBytes);
    const name = nameOf(kind, digest);
    const version = await this.shared.swap(name, base?.version ?? 0, next, this.ttlMs);
    if (version === 0) return undefined;
    const stored: Snapshot = { ...next, version };
    const held = this.parsed.get(name);
    if (held === undefined || held.version < version) this.parsed.set(name, stored);
    return stored;
  }

  /** Drops this process's copies of an account's snapshots (its last subscriber here left). */
  forget(digest: string): void {
    for (const name of [...this.parsed.keys()]) if (name.endsWith(`:${digest}`)) this.parsed.delete(name);
  }

  private async read(name: string): Promise<Snapshot | undefined> {
    const held = this.parsed.get(name);
    const stored = await this.shared.read(name, held?.version ?? 0);
    if (stored === undefined) {
      this.parsed.delete(name);
      return undefined;
    }
    if (stored.value === undefined) return held?.version === stored.version ? held : undefined;
    // Anything else (another gateway version's format) is no snapshot: the next walk is a baseline.
    if (!isUnversioned(stored.value)) return undefined;
    const snapshot: Snapshot = { ...stored.value, version: stored.version };
    this.parsed.set(name, snapshot);
    return snapshot;
  }
}
