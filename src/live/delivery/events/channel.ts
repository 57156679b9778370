// What an event stream reads: one account's messages of one kind and its current list, taken from
// the observation (observation/observations.ts). The current list's events are made as they are
// read, once per snapshot for every subscriber of the account (current-events.ts).
import { KINDS, type LiveEvent, type LiveKind } from '../../kinds/kinds';
import type { FeedMessage } from '../../observation/feed';
import type { Observations } from '../../observation/observations';
import { currentEvents } from './current-events';

/** One credential's messages of one kind, and where its current list is kept. */
export interface Channel {
  /** Attaches `listener` now; returns the detach. */
  listen(listener: (message: FeedMessage) => void): () => void;
  /** Resolves once messages published from now on reach the listeners attached so far. */
  listening(): Promise<void>;
  /**
   * The last observation as ONLINE events, with its version; undefined before the first one. The
   * events are made as they are read: the stream holds its place in the list, not a copy of it.
   */
  current(): Promise<{ readonly version: number; readonly events: Iterable<LiveEvent> } | undefined>;
}

/** The account `digest`'s channel of `kind`. */
export function channelOf(observations: Observations, kind: LiveKind, digest: string): Channel {
  const kinds = [kind];
  return {
    listen: (listener) => observations.listen(digest, kinds, (_kind, message) => listener(message)),
    listening: () => observations.listening(digest, kinds),
    current: async () => {
      const snapshot = await observations.latest(kind, digest);
      return snapshot && { version: snapshot.version, events: currentEvents(KINDS[kind], snapshot) };
    },
  };
}
