// One subscriber's stream: the feed's messages for its credential and kind turned into events, with
// the current list first when asked (includeCurrent, current-list.ts: nothing lost or sent twice
// between the two). The current list's events are made one at a time as the subscriber reads, from
// the snapshot every subscriber of the account shares. Messages wait in its inbox (inbox.ts); what it
// holds is bounded in bytes (backlog.ts), the current list's events included, and in time
// (stall.ts): a subscriber that reads too slowly is dropped. Reads come an observation at a time
// (nextGroup), for the executor that joins them together.
import { GatewayError } from '../../../errors';
import type { LiveEvent } from '../../kinds/kinds';
import type { FeedMessage } from '../../observation/feed';
import { Backlog, eventBytes, messageBytes, type SubscriberLink, tooSlow } from './backlog';
import type { Channel } from './channel';
import { currentList } from './current-list';
import { Inbox } from './inbox';
import { StallWatch, stalled } from './stall';

/** What the schema receives: an event, or the error that ends the stream. */
export type StreamItem<E extends LiveEvent = LiveEvent> = E | GatewayError;

/** Why a subscriber was dropped: more than its cap of bytes unread, or nothing read for too long. */
export type TooSlowCause = 'size' | 'time';

export interface StreamOptions {
  readonly channel: Channel;
  readonly includeCurrent: boolean;
  /** Called once when the stream ends, however it ends. */
  readonly onEnd: () => void;
  /** Called for each event handed to the subscriber (metrics). */
  readonly onSent?: (event: LiveEvent) => void;
  /** Bytes of events this subscriber may leave unread (queued here plus unsent in `link`). */
  readonly capBytes: number;
  /** The subscriber's transport, when there is one: its unsent bytes count, and it is dropped past the cap. */
  readonly link?: SubscriberLink;
  /** LIVE_MAX_SUBSCRIBER_STALL_MS: dropped when it reads nothing for this long while events wait. */
  readonly stallMs?: number;
  /** Called once, before onEnd, when the subscriber is dropped for reading too slowly. */
  readonly onTooSlow?: (cause: TooSlowCause) => void;
  /** Called with the bytes held for this subscriber after each queued message (the peak gauge). */
  readonly onHeld?: (bytes: number) => void;
}

export class EventStream implements AsyncIterableIterator<StreamItem> {
  private readonly inbox: Inbox;
  /** includeCurrent's events, sent first, made one at a time from the shared snapshot as they are read. */
  private current: Iterator<LiveEvent> | undefined;
  /** Events ready to send, in order; their bytes count against the cap until they are read. */
  private ready: StreamItem[] = [];
  /** An item nextGroup took that belongs to the next group: the next read's. */
  private peeked: StreamItem | undefined;
  private readonly backlog: Backlog;
  /** Messages of this version or older are already in the snapshot this stream started from. */
  private skipThrough = 0;
  private priming: Promise<void> | undefined;
  private primed: boolean;
  private finished = false;
  /** A read is in progress: the subscriber waits for the stream, not the other way round. */
  private reading = false;
  private readonly detach: () => void;
  private readonly stall: StallWatch | undefined;

  constructor(private readonly options: StreamOptions) {
    this.primed = !options.includeCurrent;
    this.backlog = new Backlog(options);
    this.inbox = new Inbox(this.backlog);
    this.detach = options.channel.listen((message) => this.receive(message));
    const { stallMs, link } = options;
    if (stallMs !== undefined)
      this.stall = new StallWatch({
        stallMs,
        waiting: () => this.waiting(),
        unsent: () => link?.backlogBytes() ?? 0,
        onStalled: () => this.drop('time'),
      });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<StreamItem>> {
    this.reading = true;
    try {
      return await this.read();
    } finally {
      this.reading = false;
    }
  }

  /**
   * The next item, and after it the items of the same observation ready now, `most` in all: what
   * the subscription's executor joins together (gateway/limits/observation-joins.ts). Empty: done.
   */
  async nextGroup(most: number): Promise<StreamItem[]> {
    const first = await this.next();
    if (first.done) return [];
    const group = [first.value];
    if (first.value instanceof GatewayError) return group;
    while (group.length < most) {
      const item = this.takeNow() ?? (this.primed && this.drain() ? this.takeNow() : undefined);
      if (item === undefined) break;
      if (item instanceof GatewayError || item.observedAt !== first.value.observedAt) {
        this.peeked = item;
        break;
      }
      group.push(this.sent(item));
    }
    return group;
  }

  private takeNow(): StreamItem | undefined {
    const peeked = this.peeked;
    this.peeked = undefined;
    return peeked ?? this.takeCurrent() ?? this.takeReady();
  }

  private sent<T extends StreamItem>(item: T): T {
    this.stall?.progress();
    if (!(item instanceof GatewayError)) this.options.onSent?.(item);
    return item;
  }

  private async read(): Promise<IteratorResult<StreamItem>> {
    for (;;) {
      const item = this.takeNow();
      if (item !== undefined) return { done: false, value: this.sent(item) };
      if (this.finished) return { done: true, value: undefined };
      if (!this.primed) {
        this.priming ??= this.prime();
        await this.priming;
        continue;
      }
      if (this.drain()) continue;
      await this.inbox.arrival();
    }
  }

  async return(): Promise<IteratorResult<StreamItem>> {
    this.end();
    return { done: true, value: undefined };
  }

  /** Completes the stream: what is ready is dropped, the next read says done (graceful shutdown). */
  complete(): void {
    this.current = undefined;
    this.peeked = undefined;
    this.ready = [];
    this.end();
  }

  /** Bytes held for this subscriber now: queued here plus unsent in its transport. */
  heldBytes(): number {
    return this.finished ? 0 : this.backlog.held();
  }

  /**
   * The current list's next event, made now; it counts against the cap like a queued one. Past the
   * cap (what the transport holds unsent, plus what is queued, plus this event) the subscriber is
   * dropped, and the error is the item instead.
   */
  private takeCurrent(): StreamItem | undefined {
    if (this.current === undefined) return undefined;
    const next = this.current.next();
    if (next.done) {
      this.current = undefined;
      return undefined;
    }
    const held = this.backlog.held();
    // Nothing held: one event reaches the subscriber whole, however large (as a queued message does).
    const bytes = held > 0 ? held + eventBytes(next.value) : 0;
    if (bytes > this.options.capBytes) {
      this.drop('size');
      return this.takeReady();
    }
    if (bytes > 0) this.options.onHeld?.(bytes);
    return next.value;
  }

  /** Something waits for the subscriber: bytes its transport holds unsent, or items between reads. */
  private waiting(): boolean {
    if (this.finished) return false;
    if ((this.options.link?.backlogBytes() ?? 0) > 0) return true;
    const queued = this.current !== undefined || this.peeked !== undefined || this.ready.length > 0;
    return !this.reading && (queued || this.inbox.size > 0);
  }

  private takeReady(): StreamItem | undefined {
    const item = this.ready.shift();
    if (item !== undefined && !(item instanceof GatewayError)) this.backlog.release(eventBytes(item));
    return item;
  }

  /** Ends the stream after the items ready now have been read. */
  private end(): void {
    if (this.finished) return;
    this.finished = true;
    this.inbox.clear();
    this.backlog.clear();
    this.stall?.stop();
    this.detach();
    this.inbox.wake();
    this.options.onEnd();
  }

  private receive(message: FeedMessage): void {
    if (this.finished) return;
    if (!this.inbox.receive(message)) this.drop('size');
  }

  /** Past the cap or the stall time: nothing queued is kept, the error is the last item, the transport is dropped. */
  private drop(cause: TooSlowCause): void {
    if (this.finished) return;
    const { capBytes, stallMs = 0, link, onTooSlow } = this.options;
    const error = cause === 'size' ? tooSlow(capBytes) : stalled(stallMs);
    this.current = undefined;
    this.peeked = undefined;
    this.ready = [error];
    onTooSlow?.(cause);
    this.end();
    link?.drop(error.message);
  }

  /** Turns queued messages into ready items; false when there were none. */
  private drain(): boolean {
    const message = this.inbox.take();
    if (message === undefined) return false;
    if (message.type === 'ended') {
      this.ready.push(new GatewayError(message.code, message.message, { upstream: message.upstream }));
      this.end();
      return true;
    }
    if (message.type === 'changes') {
      if (message.version > this.skipThrough) this.ready.push(...message.events);
      else this.backlog.release(messageBytes(message));
    }
    return true;
  }

  /** includeCurrent: the snapshot's items first; without one yet, the first observation's. */
  private async prime(): Promise<void> {
    const current = await currentList(this.options.channel, this.inbox, () => this.finished);
    if (current !== undefined) {
      this.skipThrough = current.version;
      this.current = current.events;
    }
    this.primed = true;
  }
}
