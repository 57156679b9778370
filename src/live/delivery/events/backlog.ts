// What one subscriber holds in the gateway: the bytes of events queued for it plus what its
// transport has taken and not yet handed to the kernel, kept under LIVE_MAX_SUBSCRIBER_BUFFER_BYTES.
// Both transports stop pulling events while their socket is full (SSE awaits 'drain', graphql-ws the
// send callback), so a client that stops reading makes the queue grow: past the cap it is dropped.

import { GatewayError } from '../../../errors';
import type { FeedMessage } from '../../observation/feed';

/** The last item of a stream whose subscriber left more than the cap unread. */
export const tooSlow = (capBytes: number): GatewayError =>
  new GatewayError(
    'RATE_LIMITED',
    `Read too slowly: over ${capBytes} bytes of events waited unread; subscribe again with includeCurrent.`,
  );

/** The transport side of one subscriber, as the context factory (HTTP) or graphql-ws builds it. */
export interface SubscriberLink {
  /** Names the transport in metrics: http (SSE, multipart) or websocket (graphql-ws). */
  readonly transport: 'http' | 'websocket';
  /** Bytes the transport has accepted for this subscriber and not yet written to its socket. */
  backlogBytes(): number;
  /** Ends the connection promptly, with `reason` where the transport can say it. */
  drop(reason: string): void;
}

/** Sizes of events as JSON: computed once per event, which every subscriber of its account shares. */
const sizes = new WeakMap<object, number>();

export function eventBytes(event: object): number {
  let size = sizes.get(event);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(event));
    sizes.set(event, size);
  }
  return size;
}

/** What a feed message adds to a subscriber's queue. */
export function messageBytes(message: FeedMessage): number {
  if (message.type !== 'changes') return 0;
  let bytes = 0;
  for (const event of message.events) bytes += eventBytes(event);
  return bytes;
}

export interface BacklogOptions {
  readonly capBytes: number;
  readonly link?: SubscriberLink;
  /** Called with the bytes held after each admission (the peak gauge). */
  readonly onHeld?: (bytes: number) => void;
}

export class Backlog {
  private queued = 0;

  constructor(private readonly options: BacklogOptions) {}

  /** Bytes held for the subscriber now: queued here plus unsent in its transport. */
  held(): number {
    return this.queued + (this.options.link?.backlogBytes() ?? 0);
  }

  /**
   * Queues `bytes` more when they fit under the cap with what is held, or when nothing is queued
   * here (one poll's changes reach a subscriber that keeps up, however large); false otherwise.
   */
  admit(bytes: number): boolean {
    const held = this.held() + bytes;
    if (this.queued > 0 && held > this.options.capBytes) return false;
    this.queued += bytes;
    this.options.onHeld?.(held);
    return true;
  }

  /** `bytes` left the queue: handed to the transport, or skipped. */
  release(bytes: number): void {
    this.queued = Math.max(0, this.queued - bytes);
  }

  clear(): void {
    this.queued = 0;
  }
}
