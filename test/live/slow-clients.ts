// Subscribers that fall behind, for the slow-subscriber tests: an SSE subscription over a raw socket
// that reads nothing until resumed, a graphql-ws subscriber whose TCP socket the test can pause or
// throttle, and the throttle.
import { connect, type Socket } from 'node:net';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { EVENTS, KEY, type Subscriber, until, wsSubscribe } from './support';

/** Selects the tunnels' metadata, which makes the events large. */
export const QUERY = EVENTS('id metadata');

/** The body of an HTTP/1.1 response with chunked transfer encoding, as far as it arrived whole. */
function dechunk(response: Buffer): string {
  const head = response.indexOf('\r\n\r\n');
  if (head === -1) return '';
  const parts: Buffer[] = [];
  let at = head + 4;
  for (;;) {
    const line = response.indexOf('\r\n', at);
    if (line === -1) break;
    const size = Number.parseInt(response.subarray(at, line).toString(), 16);
    if (!(size > 0) || line + 2 + size > response.length) break;
    parts.push(response.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
  return Buffer.concat(parts).toString();
}

/** An SSE subscription over a raw socket that reads nothing until resumed; `body()`: what it read. */
export async function stalledSse(
  base: string,
  key = KEY,
  query = QUERY,
): Promise<{ socket: Socket; body: () => string; closed: Promise<void> }> {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  socket.pause();
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const body = JSON.stringify({ query });
  socket.write(
    'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Accept: text/event-stream\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => {});
  socket.pause();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, body: () => dechunk(Buffer.concat(received)), closed };
}

export interface WsSubscriber extends Subscriber {
  /** The client's TCP socket, once upgraded. */
  socket(): Socket;
  /** The close code and reason the client saw, once closed. */
  closedWith(): { code: number; reason: string } | undefined;
}

/** A graphql-ws subscriber whose underlying socket the test can pause. */
export async function wsSubscriber(wsUrl: string, key = KEY, query = QUERY): Promise<WsSubscriber> {
  let tcp: Socket | undefined;
  let closed: { code: number; reason: string } | undefined;
  class Tapped extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols);
      this.once('upgrade', (response) => {
        tcp = response.socket as Socket;
      });
    }
  }
  const client = createClient({
    url: wsUrl,
    webSocketImpl: Tapped,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: true,
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        closed = { code, reason: String(reason) };
      },
    },
  });
  const s = wsSubscribe(client, {}, query);
  await until(() => tcp !== undefined, 'the WebSocket upgrade');
  return Object.assign(s, {
    socket: () => tcp as Socket,
    closedWith: () => closed,
  });
}

/** Lets `socket` read about `bytesPerSecond`, in tenths of a second. Returns the stop. */
export function throttle(socket: Socket, bytesPerSecond: number): () => void {
  let allowed = 0;
  let read = 0;
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read >= allowed) socket.pause();
  });
  socket.pause();
  const timer = setInterval(() => {
    allowed += bytesPerSecond / 10;
    if (read < allowed) socket.resume();
  }, 100);
  return () => clearInterval(timer);
}

/**
 * The tunnels online after `events` (kind:tunnelId) from an empty account; throws at an ONLINE of a
 * tunnel already online or an OFFLINE of one that is not: a lost or repeated event shows.
 */
export function replay(events: readonly string[]): string[] {
  const online = new Set<string>();
  for (const event of events) {
    const [kind, id = ''] = event.split(':');
    if ((kind === 'ONLINE') === online.has(id))
      throw new Error(`${event} does not follow the events before it`);
    if (kind === 'ONLINE') online.add(id);
    else online.delete(id);
  }
  return [...online].sort();
}
