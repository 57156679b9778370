// An includeCurrent subscriber's first events: the shared snapshot's items as ONLINE events, each
// made once per snapshot, when the first subscriber reaches it, and handed to every other subscriber
// of the account on this replica as the same object. So its size as JSON (backlog.ts) is measured
// once and its joins (lookups/observation-lookups.ts) are made once, not once per subscriber: with 500 subscribers
// of a 10,000-item list the gateway builds 10,000 events, not 5 million. The events live as long as
// the snapshot they were made from (a subscriber still reading it holds it).
import type { KindRules, LiveEvent } from '../../kinds/kinds';
import type { Listed, Snapshot } from '../../observation/snapshots/snapshot';

/** The events made so far of each snapshot, by item index. */
const made = new WeakMap<Snapshot, (LiveEvent | undefined)[]>();

/** `snapshot`'s items as ONLINE events, in order, each made on first read and then shared. */
export function* currentEvents(
  rules: KindRules<Listed, LiveEvent>,
  snapshot: Snapshot,
): Generator<LiveEvent> {
  let events = made.get(snapshot);
  if (events === undefined) {
    events = new Array(snapshot.items.length);
    made.set(snapshot, events);
  }
  for (const [index, item] of snapshot.items.entries()) {
    let event = events[index];
    if (event === undefined) {
      event = rules.online(item, snapshot.observedAt);
      events[index] = event;
    }
    yield event;
  }
}
