// graphql-ws connections that break under the gateway's writes (a browser tab killed, a client process
// that exits: the write meets the peer's reset). The write fails while the socket still reads as
// open; the gateway drops the frame, prints nothing (graphql-ws would print the failure with its
// stack), the connection closes and its stream ends, and the gateway goes on serving.
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import WebSocket from 'ws';
import { makeTunnels } from '../../src/sandbox';
import { EVENTS, KEY, type Stack, startLiveStack, until, wsClient, wsSubscribe } from './support';

/** From now on every write on `socket` fails as a write to a reset peer does (Node's stream_base). */
function resetUnderWrites(socket: Socket): void {
  const reset = () => Object.assign(new Error('write ECONNRESET'), { code: 'ECONNRESET', errno: -104 });
  const writable = socket as unknown as {
    _write(chunk: unknown, encoding: string, done: (error: Error) => void): void;
    _writev(chunks: unknown[], done: (error: Error) => void): void;
  };
  writable._write = (_chunk, _encoding, done) => done(reset());
  writable._writev = (_chunks, done) => done(reset());
}

describe('graphql-ws connections that reset under a write', () => {
  let h: Stack;
  /** The raw socket of each upgrade, in order. */
  const sockets: Socket[] = [];
  let printed: MockInstance[] = [];
  beforeAll(async () => {
    h = await startLiveStack({ accounts: { [KEY]: { tunnels: makeTunnels(2, { seed: 61 }) } } });
    h.server.on('upgrade', (_request, socket: Socket) => sockets.push(socket));
  });
  afterAll(() => h.close());
  afterEach(async () => {
    // A failed write's error surfaces a turn or two later: give it time to be printed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = printed.flatMap((spy) => spy.mock.calls);
    for (const spy of printed.splice(0)) spy.mockRestore();
    expect(lines).toEqual([]);
    await until(() => sockets.every((socket) => socket.destroyed), 'the broken connection to close');
    const { body } = await h.gql('{ tunnels(first: 1) { nodes { id } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ tunnels: { nodes: [{ id: expect.any(String) }] } });
  });
  const watchConsole = () => {
    printed = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'log')];
  };

  it('the connection_ack: nothing printed, the connection closes', async () => {
    watchConsole();
    const ws = new WebSocket(h.wsUrl, 'graphql-transport-ws');
    ws.on('error', () => {});
    const closed = new Promise((resolve) => ws.once('close', resolve));
    await new Promise((resolve) => ws.once('open', resolve));
    resetUnderWrites(sockets.at(-1) as Socket);
    ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${KEY}` } }));
    await closed;
  });

  it("a subscriber's next event: nothing printed, its stream ends", async () => {
    watchConsole();
    const client = wsClient(h.wsUrl, KEY);
    try {
      const subscriber = wsSubscribe(client, { includeCurrent: true }, EVENTS('id'));
      await subscriber.received(2);
      resetUnderWrites(sockets.at(-1) as Socket);
      // The next walk's event is written to the broken connection.
      h.sandbox.addTunnel(KEY);
      await until(() => h.gateway.live.count(KEY) === 0, 'the broken stream to end');
    } finally {
      await client.dispose();
    }
  });
});
