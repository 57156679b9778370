// What observation offers the rest of live/: per account and kind, "a new complete observation,
// version N". Each message of the feed (feed.ts) on a kind's topic is that notice: `baseline` (an
// account's first observation) or `changes` (with the events derived from the one before), each with
// its version and observedAt, or `ended` (the kind's observation stopped: refused, or too large). A
// listener names the kinds it needs, so one consumer of several kinds (a live query) hears each
// kind's notices; the observation's items are `latest`'s, at or past the version a notice named.
import { KINDS, type LiveKind } from '../kinds/kinds';
import type { FeedMessage, LiveFeed } from './feed';
import type { SharedSnapshots } from './snapshots/shared-snapshots';
import type { Snapshot } from './snapshots/snapshot';

/** Hears one account's notices of the kinds it listens to, each with its kind. */
export type ObservationListener = (kind: LiveKind, message: FeedMessage) => void;

export class Observations {
  constructor(
    private readonly feed: LiveFeed,
    private readonly snapshots: SharedSnapshots,
  ) {}

  /** Attaches `listener` to the account's notices of `kinds` now; returns the detach. */
  listen(digest: string, kinds: Iterable<LiveKind>, listener: ObservationListener): () => void {
    const detaches = [...kinds].map((kind) =>
      this.feed.listen(KINDS[kind].topic, digest, (message) => listener(kind, message)),
    );
    return () => {
      for (const detach of detaches) detach();
    };
  }

  /** Resolves once notices published from now on reach the listeners attached so far. */
  async listening(digest: string, kinds: Iterable<LiveKind>): Promise<void> {
    await Promise.all([...kinds].map((kind) => this.feed.listening(KINDS[kind].topic, digest)));
  }

  /** The account's latest observation of `kind` (shared: never change it); undefined before its first. */
  latest(kind: LiveKind, digest: string): Promise<Snapshot | undefined> {
    return this.snapshots.observed(kind, digest);
  }
}
