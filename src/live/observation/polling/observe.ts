// One observation of one kind of an account's list: the walk, settled against the writes made
// through the gateway meanwhile, stored as the new snapshot (compare-and-set: a write stored while
// the walk settled makes it settle again) and published as the changes since the last observation
// (or as a baseline when there was none).
import type { NgrokClient } from '../../../upstream';
import { KINDS, type LiveKind } from '../../kinds/kinds';
import type { LiveFeed } from '../feed';
import type { SharedSnapshots } from '../snapshots/shared-snapshots';
import { isObserved, type Listed, type Snapshot, settleWalk } from '../snapshots/snapshot';
import { type WalkHooks, walkList } from './walk';

export interface ObserveDeps {
  readonly digest: string;
  readonly client: NgrokClient;
  readonly snapshots: SharedSnapshots;
  readonly feed: LiveFeed;
  /** The wall clock, for observedAt only (tests set it); nothing is ordered by it. */
  readonly now?: () => number;
}

/** What observe() needs between its walk and its publishing. */
export interface ObserveHooks extends WalkHooks {
  /** False when this process lost the lease meanwhile: the walk is then discarded. */
  stillPolling(): Promise<boolean>;
}

export type Observed = { readonly ok: true; readonly snapshot: Snapshot } | { readonly ok: false };

/** Writes racing one walk's storing: far more than any account makes between two reads. */
const MAX_SWAPS = 20;

/** Whether two observations hold the same items, field for field, in the same order. */
const sameItems = (a: readonly Listed[], b: readonly Listed[]): boolean =>
  a.length === b.length && JSON.stringify(a) === JSON.stringify(b);

/** Throws what the walk threw; resolves `ok: false` when the lease was lost during it. */
export async function observe(
  deps: ObserveDeps,
  kind: LiveKind,
  previous: Snapshot | undefined,
  hooks: ObserveHooks,
): Promise<Observed> {
  const rules = KINDS[kind];
  // The version stored as the walk begins: writes applied onto it or later may be missing from the walk.
  const mark = (await deps.snapshots.get(kind, deps.digest))?.version ?? 0;
  const walked = await walkList(rules, deps.client, hooks, deps.snapshots.maxBytes);
  // Only the holder publishes: a lease lost during the walk (a stall past its TTL) discards it.
  if (!(await hooks.stillPolling())) return { ok: false };
  const observedAt = new Date((deps.now ?? Date.now)()).toISOString();
  for (let attempt = 0; attempt < MAX_SWAPS; attempt += 1) {
    // The stored snapshot may be newer: another replica polled, or a write through the gateway landed.
    const stored = await deps.snapshots.get(kind, deps.digest);
    const settled = settleWalk(stored, walked, mark);
    const next = await deps.snapshots.swap(kind, deps.digest, stored, {
      observedAt,
      items: settled.items,
      ...(settled.writes ? { writes: settled.writes } : {}),
    });
    if (next === undefined) continue;
    // What subscribers last saw: the store's observation, else this poller's own (the store lost it).
    const base = isObserved(stored) ? stored : previous;
    if (base === undefined)
      deps.feed.publish(rules.topic, deps.digest, { type: 'baseline', version: next.version, observedAt });
    else {
      const events = rules.changes(base, next);
      // A change no event names (a reservation's description, a tunnel's metadata) is still news to
      // a live query, which reads every field.
      if (events.length > 0 || !sameItems(base.items, next.items))
        deps.feed.publish(rules.topic, deps.digest, {
          type: 'changes',
          version: next.version,
          observedAt,
          events,
        });
    }
    return { ok: true, snapshot: next };
  }
  throw new Error(`the ${kind} snapshot kept changing while it was stored`);
}
