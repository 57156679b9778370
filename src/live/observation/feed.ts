// Where observations are published: yoga's pub/sub with one topic per kind and credential digest.
// Its event target is in-process, or the shared one over Redis pub/sub
// (shared-state/events/shared-events.ts) so every replica hears one poller. Messages are plain JSON
// for that reason. Each observation that moves what subscribers see is one message: its version (the
// notice, observations.ts) and the events derived from the observation before it.
import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub, type PubSubEventTarget } from 'graphql-yoga';
import type { ErrorCode, UpstreamInfo } from '../../errors';
import type { LiveEvent, Topic } from '../kinds/kinds';

export type FeedMessage =
  /** A new poller's first complete observation: nothing changed, but the snapshot is there now. */
  | { readonly type: 'baseline'; readonly version: number; readonly observedAt?: string }
  | {
      readonly type: 'changes';
      readonly version: number;
      /** When it was observed; absent from a replica that predates it (a rolling upgrade). */
      readonly observedAt?: string;
      readonly events: readonly LiveEvent[];
    }
  /** The upstream refused the credential: every stream of it ends with this error. */
  | {
      readonly type: 'ended';
      readonly code: ErrorCode;
      readonly message: string;
      readonly upstream?: UpstreamInfo;
    };

export type Topics = Record<Topic, [digest: string, message: FeedMessage]>;

export interface LiveFeed {
  publish(topic: Topic, digest: string, message: FeedMessage): void;
  /** Attaches `listener` before it returns (in process, no message published afterwards is missed); returns the detach. */
  listen(topic: Topic, digest: string, listener: (message: FeedMessage) => void): () => void;
  /** Resolves once what is published from now on reaches the listeners attached so far (Redis confirmed it). */
  listening(topic: Topic, digest: string): Promise<void>;
}

/** Resolves when the event target delivers what is published from now on to `topic`'s listeners. */
export type Subscribed = (topic: string) => Promise<void>;

export class PubSubFeed implements LiveFeed {
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

  publish(topic: Topic, digest: string, message: FeedMessage): void {
    this.pubSub.publish(topic, digest, message);
  }

  async listening(topic: Topic, digest: string): Promise<void> {
    // yoga's createPubSub names the topic of an id `<routing key>:<id>`.
    await this.subscribed?.(`${topic}:${digest}`);
  }

  listen(topic: Topic, digest: string, listener: (message: FeedMessage) => void): () => void {
    const iterator = this.pubSub.subscribe(topic, digest)[Symbol.asyncIterator]();
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
