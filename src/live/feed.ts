// The fan-out of observations to subscribers: yoga's pub/sub with one topic per credential digest.
// Its event target is in-process, or the shared one over Redis pub/sub (shared-state/shared-events.ts)
// so every replica's subscribers hear one poller. Messages are plain JSON for that reason.
import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub, type PubSubEventTarget } from 'graphql-yoga';
import type { ErrorCode, UpstreamInfo } from '../errors';
import type { TunnelEventPayload } from './snapshot';

export type FeedMessage =
  /** A new poller's first complete observation: nothing changed, but the snapshot is there now. */
  | { readonly type: 'baseline'; readonly version: number }
  | { readonly type: 'changes'; readonly version: number; readonly events: readonly TunnelEventPayload[] }
  /** The upstream refused the credential: every stream of it ends with this error. */
  | {
      readonly type: 'ended';
      readonly code: ErrorCode;
      readonly message: string;
      readonly upstream?: UpstreamInfo;
    };

export type Topics = { tunnelEvents: [digest: string, message: FeedMessage] };

export interface TunnelFeed {
  publish(digest: string, message: FeedMessage): void;
  /** Attaches `listener` before it returns (in process, no message published afterwards is missed); returns the detach. */
  listen(digest: string, listener: (message: FeedMessage) => void): () => void;
  /** Resolves once what is published from now on reaches the listeners attached so far (Redis confirmed it). */
  listening(digest: string): Promise<void>;
}

/** Resolves when the event target delivers what is published from now on to `topic`'s listeners. */
export type Subscribed = (topic: string) => Promise<void>;

export class PubSubFeed implements TunnelFeed {
  private readonly pubSub: PubSub<Topics>;

  /** `eventTarget`: in-process when omitted; a Redis one shares the feed across replicas. */
  constructor(
    eventTarget?: PubSubEventTarget<Topics>,
    private readonly subscribed?: Subscribed,
  ) {
    const local = new EventTarget();
    // One listener per subscriber of a credential: bounded by LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL, not 10.
    setMaxListeners(0, local);
    this.pubSub = createPubSub<Topics>({
      eventTarget: eventTarget ?? (local as unknown as PubSubEventTarget<Topics>),
    });
  }

  publish(digest: string, message: FeedMessage): void {
    this.pubSub.publish('tunnelEvents', digest, message);
  }

  async listening(digest: string): Promise<void> {
    // yoga's createPubSub names the topic of an id `<routing key>:<id>`.
    await this.subscribed?.(`tunnelEvents:${digest}`);
  }

  listen(digest: string, listener: (message: FeedMessage) => void): () => void {
    const iterator = this.pubSub.subscribe('tunnelEvents', digest)[Symbol.asyncIterator]();
    let detached = false;
    // The first next() runs the subscription's executor, which adds the event listener synchronously.
    const pump = async () => {
      for (let item = await iterator.next(); !item.done && !detached; item = await iterator.next()) {
        listener(item.value);
      }
    };
    void pump();
    return () => {
      if (detached) return;
      detached = true;
      void iterator.return?.();
    };
  }
}
