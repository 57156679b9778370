// Where observations are kept: the shared snapshot store (Redis, per process while it is down; in
// this process without Redis), and one parsed copy of each account's latest snapshot in this process,
// shared read-only by every subscriber and write here. A write hands the store what changed against
// its base (items by id, unchanged ones kept as the base's own objects), and a read applies the
// changes since the version held here: a one-item change moves and parses that item, not the list.
// Items are kept in descending id order, the upstream's listing order (its pages go by before_id),
// so every replica rebuilds the same list from items by id. A snapshot outlives its poller: the
// poller that takes an account over, here or on another replica, diffs against it, and includeCurrent
// on any replica starts from it. Past LIVE_MAX_SNAPSHOT_BYTES a snapshot is not stored (SnapshotTooLarge).
import { LRUCache } from 'lru-cache';
import type { SnapshotChange, SnapshotStore } from '../../../shared-state';
import { MINUTE_MS } from '../../../time';
import type { LiveKind } from '../../kinds/kinds';
import { isObserved, type Listed, type Snapshot, type Unversioned } from './snapshot';

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

/** A snapshot but its items and version: what the store keeps as the head. */
type Head = Omit<Unversioned, 'items'>;

const isHead = (value: unknown): value is Head =>
  typeof value === 'object' && value !== null && typeof (value as Partial<Head>).observedAt === 'string';

const isListed = (id: string, item: unknown): item is Listed =>
  typeof item === 'object' && item !== null && (item as Partial<Listed>).id === id;

const newestFirst = (a: Listed, b: Listed): number => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Bytes of an item as JSON, once per item object (items are shared, never changed). */
const sizes = new WeakMap<object, number>();
const bytesOf = (item: Listed, json = JSON.stringify(item)): number => {
  let size = sizes.get(item);
  if (size === undefined) {
    size = Buffer.byteLength(json);
    sizes.set(item, size);
  }
  return size;
};

/** `base` (or nothing) with `change` applied, as a snapshot of `version`; undefined when malformed. */
function applied(base: Snapshot | undefined, change: SnapshotChange, version: number): Snapshot | undefined {
  if (!isHead(change.head)) return undefined;
  const items = new Map(base?.items.map((item) => [item.id, item]));
  for (const id of change.deletes) items.delete(id);
  for (const [id, item] of change.upserts) {
    if (!isListed(id, item)) return undefined;
    items.set(id, item);
  }
  return { ...change.head, items: [...items.values()].sort(newestFirst), version };
}

const nameOf = (kind: LiveKind, digest: string) => `${kind}:${digest}`;

export class SharedSnapshots {
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
   * Stores `next` as the successor of `base` (undefined: none stored), handing the store only what
   * changed: the stored snapshot with its new version, or undefined when another write came first
   * (read again and retry). Throws SnapshotTooLarge past the byte bound.
   */
  async swap(
    kind: LiveKind,
    digest: string,
    base: Snapshot | undefined,
    next: Unversioned,
  ): Promise<Snapshot | undefined> {
    const { items: nextItems, ...head } = next;
    const before = new Map(base?.items.map((item) => [item.id, item]));
    const items: Listed[] = [];
    const upserts: [string, Listed][] = [];
    let bytes = Buffer.byteLength(JSON.stringify(head));
    for (const item of [...nextItems].sort(newestFirst)) {
      const old = before.get(item.id);
      before.delete(item.id);
      if (old === item) {
        bytes += bytesOf(item) + 1;
        items.push(item);
        continue;
      }
      const json = JSON.stringify(item);
      // Unchanged: the base's object stays (one copy in the process), and the store is not told.
      const same = old !== undefined && JSON.stringify(old) === json;
      bytes += bytesOf(same ? old : item, json) + 1;
      items.push(same ? old : item);
      if (!same) upserts.push([item.id, item]);
    }
    if (bytes > this.maxBytes) throw new SnapshotTooLarge(kind, this.maxBytes);
    const name = nameOf(kind, digest);
    const change: SnapshotChange = { head, upserts, deletes: base === undefined ? [] : [...before.keys()] };
    const version = await this.shared.swap(name, base?.version ?? 0, change, this.ttlMs);
    if (version === 0) return undefined;
    const stored: Snapshot = { ...head, items, version };
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
    if ('same' in stored) return held?.version === stored.version ? held : undefined;
    let snapshot: Snapshot | undefined;
    if ('whole' in stored) snapshot = applied(undefined, stored.whole, stored.version);
    else {
      snapshot = held;
      for (const change of stored.changes) snapshot = snapshot && applied(snapshot, change, stored.version);
    }
    // Anything malformed (another gateway version's format) is no snapshot: the next walk is a baseline.
    if (snapshot === undefined) return undefined;
    const latest = this.parsed.get(name);
    if (latest === undefined || latest.version < snapshot.version) this.parsed.set(name, snapshot);
    return snapshot;
  }
}
