// The last complete observation of an account's tunnels, the diff between two of them, and where
// observations are kept (in this process, or shared through Redis: shared-snapshots.ts).
import type { Tunnel } from '../upstream';

export type TunnelEventKind = 'ONLINE' | 'OFFLINE';

/** One change as subscribers receive it; plain data, so it can travel through any pub/sub. */
export interface TunnelEventPayload {
  readonly kind: TunnelEventKind;
  readonly tunnelId: string;
  /** As listed (ONLINE), or as last seen (OFFLINE). */
  readonly tunnel: Tunnel;
  /** RFC 3339: when the walk that saw the change ended. */
  readonly observedAt: string;
}

export interface Snapshot {
  /** Grows by one per complete observation of this credential; events carry the version that made them. */
  readonly version: number;
  readonly observedAt: string;
  /** Newest first, as the upstream lists them. */
  readonly tunnels: readonly Tunnel[];
}

/** ONLINE for ids new in `next` (newest first), then OFFLINE for ids gone from `previous`. */
export function diffSnapshots(previous: Snapshot, next: Snapshot): TunnelEventPayload[] {
  const before = new Set(previous.tunnels.map((t) => t.id));
  const after = new Set(next.tunnels.map((t) => t.id));
  const observedAt = next.observedAt;
  const events: TunnelEventPayload[] = [];
  for (const tunnel of next.tunnels) {
    if (!before.has(tunnel.id)) events.push({ kind: 'ONLINE', tunnelId: tunnel.id, tunnel, observedAt });
  }
  for (const tunnel of previous.tunnels) {
    if (!after.has(tunnel.id)) events.push({ kind: 'OFFLINE', tunnelId: tunnel.id, tunnel, observedAt });
  }
  return events;
}

/** The current tunnels as ONLINE events: what an includeCurrent subscriber starts from. */
export const currentEvents = (snapshot: Snapshot): TunnelEventPayload[] =>
  snapshot.tunnels.map((tunnel) => ({
    kind: 'ONLINE',
    tunnelId: tunnel.id,
    tunnel,
    observedAt: snapshot.observedAt,
  }));

/** Last complete snapshot per credential digest. Async so a Redis store can stand in. */
export interface SnapshotStore {
  get(digest: string): Promise<Snapshot | undefined>;
  set(digest: string, snapshot: Snapshot): Promise<void>;
  /** This process's poller of `digest` stopped: what the store keeps for the next poller, if anything. */
  retire(digest: string): Promise<void>;
}

/** One process's snapshots; entries live only while their credential has a poller. */
export class MemorySnapshotStore implements SnapshotStore {
  private readonly snapshots = new Map<string, Snapshot>();

  async get(digest: string): Promise<Snapshot | undefined> {
    return this.snapshots.get(digest);
  }

  async set(digest: string, snapshot: Snapshot): Promise<void> {
    this.snapshots.set(digest, snapshot);
  }

  async retire(digest: string): Promise<void> {
    this.snapshots.delete(digest);
  }
}

/** The later of two observations of one account (versions grow across replicas, see the poller). */
export const newest = (a: Snapshot | undefined, b: Snapshot | undefined): Snapshot | undefined =>
  a === undefined ? b : b === undefined || a.version >= b.version ? a : b;
