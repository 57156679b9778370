// One observation of one kind of an account's list: the walk, settled against the writes made
// through the gateway meanwhile, stored as the new snapshot and published as the changes since the
// last one (or as a baseline when there was none).
import type { NgrokClient } from '../upstream';
import type { LiveFeed } from './feed';
import { KINDS, type LiveKind } from './kinds';
import { newest, nextVersion, type Snapshot, settleWalk } from './snapshot';
import type { Snapshots } from './snapshots';
import { type WalkHooks, walkList } from './walk';

export interface ObserveDeps {
  readonly digest: string;
  readonly client: NgrokClient;
  readonly snapshots: Snapshots;
  readonly feed: LiveFeed;
}

/** What observe() needs between its walk and its publishing. */
export interface ObserveHooks extends WalkHooks {
  /** False when this process lost the lease meanwhile: the walk is then discarded. */
  stillPolling(): Promise<boolean>;
}

export type Observed = { readonly ok: true; readonly snapshot: Snapshot } | { readonly ok: false };

/** Throws what the walk threw; resolves `ok: false` when the lease was lost during it. */
export async function observe(
  deps: ObserveDeps,
  kind: LiveKind,
  previous: Snapshot | undefined,
  hooks: ObserveHooks,
): Promise<Observed> {
  const rules = KINDS[kind];
  const startedAt = Date.now();
  const walked = await walkList(rules, deps.client, hooks);
  // Only the holder publishes: a lease lost during the walk (a stall past its TTL) discards it.
  if (!(await hooks.stillPolling())) return { ok: false };
  // The stored snapshot may be newer: another replica polled, or a write through the gateway landed.
  const base = newest(previous, await deps.snapshots.get(kind, deps.digest));
  const settled = settleWalk(base, walked, startedAt);
  const next: Snapshot = {
    version: nextVersion(base),
    observedAt: new Date().toISOString(),
    items: settled.items,
    ...(settled.writes ? { writes: settled.writes } : {}),
  };
  await deps.snapshots.set(kind, deps.digest, next);
  if (base === undefined)
    deps.feed.publish(rules.topic, deps.digest, { type: 'baseline', version: next.version });
  else {
    const events = rules.changes(base, next);
    if (events.length > 0)
      deps.feed.publish(rules.topic, deps.digest, { type: 'changes', version: next.version, events });
  }
  return { ok: true, snapshot: next };
}
