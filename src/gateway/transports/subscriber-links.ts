// The transport side of a live subscriber (src/live/delivery/events/backlog.ts) for the gateway's two transports:
// yoga's streamed HTTP response (SSE or multipart: Node's ServerResponse) and a graphql-ws socket.
// Each says what it holds unsent, and goes away promptly when its subscriber is dropped, even if the
// client never reads again.
import { ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { SubscriberLink } from '../../live';

/** How long a dropped subscriber's connection may take to close by itself before it is cut. */
const DROP_GRACE_MS = 5_000;

/** Policy Violation: graphql-ws clients do not retry it on their own (they would miss events). */
const TOO_SLOW_CLOSE_CODE = 1008;

/** A WebSocket close reason is at most 123 bytes (the gateway's reasons are ASCII). */
const closeReason = (reason: string): string => reason.slice(0, 123);

/** Cuts the connection with `cut` unless it closes by itself within the grace. */
function cutAfterGrace(closing: { once(event: 'close', listener: () => void): unknown }, cut: () => void) {
  const timer = setTimeout(cut, DROP_GRACE_MS);
  timer.unref();
  closing.once('close', () => clearTimeout(timer));
}

/** What yoga's server context may carry: Node's response (HTTP), or graphql-ws's link (websocket.ts). */
export interface LinkCarrier {
  readonly res?: unknown;
  readonly subscriberLink?: SubscriberLink;
}

/** The subscriber's link: graphql-ws's, else one over Node's response. */
export const subscriberLinkOf = (carrier: LinkCarrier): SubscriberLink | undefined =>
  carrier.subscriberLink ?? (carrier.res instanceof ServerResponse ? responseLink(carrier.res) : undefined);

/** HTTP: the stream's last item, the error, is written if the socket takes it; then the response ends. */
function responseLink(res: ServerResponse): SubscriberLink {
  return {
    transport: 'http',
    backlogBytes: () => res.writableLength,
    drop() {
      if (res.destroyed) return;
      cutAfterGrace(res, () => res.destroy());
    },
  };
}

/** graphql-ws: the socket closes with TOO_SLOW_CLOSE_CODE and the reason, and every operation on it ends. */
export function socketLink(socket: WebSocket): SubscriberLink {
  return {
    transport: 'websocket',
    backlogBytes: () => socket.bufferedAmount,
    drop(reason) {
      if (socket.readyState !== socket.OPEN) return;
      socket.close(TOO_SLOW_CLOSE_CODE, closeReason(reason));
      // The close frame waits behind what the socket holds; a client that never reads never answers it.
      cutAfterGrace(socket, () => socket.terminate());
    },
  };
}
