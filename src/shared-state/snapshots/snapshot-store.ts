// The live poller's last complete observation per credential digest (the list of tunnels it
// diffs the next walk against), so a replica taking the poll over does not replay every tunnel as
// new. Values are plain JSON and hold no credential.

export interface SnapshotStore {
  get(digest: string): Promise<unknown>;
  set(digest: string, snapshot: unknown, ttlMs: number): Promise<void>;
}
