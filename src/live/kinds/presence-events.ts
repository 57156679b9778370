// The events of the lists whose items only come and go (tunnels, tunnel sessions): ONLINE for an id
// new in an observation, OFFLINE for an id gone from it. Such an item never changes while listed.
import type { Listed, Snapshot } from '../observation/snapshots/snapshot';

export type PresenceKind = 'ONLINE' | 'OFFLINE';

/** ONLINE for ids new in `next` (newest first), then OFFLINE for ids gone from `previous`. */
export function presenceChanges<T extends Listed, E>(
  previous: Snapshot<T>,
  next: Snapshot<T>,
  event: (kind: PresenceKind, item: T, observedAt: string) => E,
): E[] {
  const before = new Set(previous.items.map((item) => item.id));
  const after = new Set(next.items.map((item) => item.id));
  const events: E[] = [];
  for (const item of next.items)
    if (!before.has(item.id)) events.push(event('ONLINE', item, next.observedAt));
  for (const item of previous.items)
    if (!after.has(item.id)) events.push(event('OFFLINE', item, next.observedAt));
  return events;
}
