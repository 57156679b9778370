// includeCurrent's start: the account's current list, read after the stream listens (over Redis,
// listening takes a round trip: a change published before it would be in neither), so the stream
// skips the messages the list already holds and nothing is lost or sent twice. Without an
// observation yet, it waits for the first one.
import type { LiveEvent } from '../../kinds/kinds';
import type { Channel } from './channel';
import type { Inbox } from './inbox';

/** The list to send first and the version through which messages are in it already. */
export interface CurrentList {
  readonly version: number;
  readonly events: Iterator<LiveEvent>;
}

/** The channel's current list once there is one; undefined when the stream ended first. */
export async function currentList(
  channel: Channel,
  inbox: Inbox,
  ended: () => boolean,
): Promise<CurrentList | undefined> {
  await channel.listening();
  let snapshot = await channel.current();
  while (snapshot === undefined && !ended()) {
    const observed = await inbox.firstObservation(ended);
    if (observed < 0) break;
    snapshot = await channel.current();
    // Stored before it was published; gone only when it expired: wait for the next one.
    if (snapshot === undefined) inbox.dropThrough(observed);
  }
  if (snapshot === undefined || ended()) return undefined;
  return { version: snapshot.version, events: snapshot.events[Symbol.iterator]() };
}
