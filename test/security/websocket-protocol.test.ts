// The graphql-ws endpoint holds the protocol's rules against a hostile or broken client on a raw
// socket: subscriptions past the live limits are refused (RATE_LIMITED) without another poller, a
// reused id, a missing connection_init, a malformed message and an oversized frame each close the
// socket with their exact code, and none of it reaches the upstream.
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { makeTunnels } from '../../src/sandbox';
import { KEY, OTHER_KEY, type Stack, startLiveStack, until } from '../live/support';

const EVENTS = 'subscription { tunnelEvents(includeCurrent: true) { kind tunnelId } }';
const tunnels = makeTunnels(3, { seed: 41 });
const ACCOUNTS = { [KEY]: { tunnels }, [OTHER_KEY]: { tunnels: makeTunnels(2, { seed: 42 }) } };
// One walk at subscribe time and none after within a test: upstream counts are exact.
const SLOW_POLL = { LIVE_POLL_INTERVAL_MS: '600000' };

interface Message {
  type: string;
  id?: string;
  payload?: unknown;
}

/** A raw graphql-transport-ws socket: every message received, and how it closed. */
interface RawSocket {
  readonly ws: WebSocket;
  readonly messages: Message[];
  readonly closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** Sends connection_init (with `key`) and waits for connection_ack. */
  init(key?: string): Promise<void>;
  /** Messages of one operation id. */
  of(id: string): Message[];
}

async function open(url: string): Promise<RawSocket> {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  const messages: Message[] = [];
  // By id too: 5000 operations are checked every 20 ms.
  const byId = new Map<string, Message[]>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    messages.push(message);
    if (message.id !== undefined) byId.set(message.id, [...(byId.get(message.id) ?? []), message]);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  // A refused frame can reset the socket on the client side too: the close event still comes.
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', () => reject(new Error('upgrade refused')));
  });
  const raw: RawSocket = {
    ws,
    messages,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async init(key = KEY) {
      raw.send({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } });
      await until(() => messages.some((m) => m.type === 'connection_ack'), 'connection_ack');
    },
    of: (id) => byId.get(id) ?? [],
  };
  return raw;
}

/** The error codes an operation ended with (graphql-ws `error`, or a `next` carrying errors). */
function codesOf(messages: Message[]): unknown[] {
  const codes: unknown[] = [];
  for (const m of messages) {
    const payload = m.payload as { errors?: { extensions?: { code?: unknown } }[] } | unknown[] | undefined;
    const errors =
      m.type === 'error'
        ? (payload as unknown[])
        : m.type === 'next'
          ? (payload as { errors?: unknown[] })?.errors
          : undefined;
    for (const e of errors ?? []) codes.push((e as { extensions?: { code?: unknown } }).extensions?.code);
  }
  return codes;
}

const subscribe = (id: string) => ({ type: 'subscribe', id, payload: { query: EVENTS } });
/** An operation is over once it got `error` or `complete`. */
const ended = (s: RawSocket, id: string) => s.of(id).some((m) => m.type === 'error' || m.type === 'complete');
/** A stream delivered the current tunnels (includeCurrent) once its first `next` with data came. */
const delivered = (s: RawSocket, id: string) =>
  s.of(id).some((m) => m.type === 'next' && (m.payload as { data?: unknown }).data != null);

describe('graphql-ws protocol rules on a raw socket', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const stack = async (env: Record<string, string> = {}): Promise<Stack> => {
    // The stack's 1 s pong deadline would drop a socket while this one process works through 5000 subscribes.
    const h = await startLiveStack({
      accounts: ACCOUNTS,
      keepAliveMs: 60_000,
      env: { ...SLOW_POLL, ...env },
    });
    cleanup.push(() => h.close());
    return h;
  };
  const socket = async (h: Stack) => {
    const s = await open(h.wsUrl);
    // Closed cleanly, as a client does when it is done.
    cleanup.push(async () => {
      s.ws.close(1000);
      await s.closed;
    });
    return s;
  };

  it('5000 subscribes on one socket: the credential cap holds, the rest get RATE_LIMITED, one poller walks once', async () => {
    const h = await stack({ LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: '5' });
    const s = await socket(h);
    await s.init();
    const ids = Array.from({ length: 5000 }, (_, i) => `s${i}`);
    for (const id of ids) s.send(subscribe(id));
    await until(() => ids.slice(5).every((id) => ended(s, id)), 'every refusal', 60_000);
    await until(() => ids.slice(0, 5).every((id) => delivered(s, id)), 'the first walk', 30_000);
    for (const id of ids.slice(5)) expect(codesOf(s.of(id))).toEqual(['RATE_LIMITED']);
    for (const id of ids.slice(0, 5)) {
      expect(codesOf(s.of(id))).toEqual([]);
      expect(ended(s, id)).toBe(false);
    }
    expect(h.gateway.live.count(KEY)).toBe(5);
    expect(h.gateway.live.pollers()).toBe(1);
    // One walk of one page (3 tunnels) for all five streams; the refused ones cost nothing.
    expect(h.sandbox.calls('listTunnels')).toBe(1);
    expect(h.sandbox.calls()).toBe(1);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
  }, 120_000);

  it('reusing the id of an active subscription closes the socket with 4409', async () => {
    const h = await stack();
    const s = await socket(h);
    await s.init();
    s.send(subscribe('same'));
    await until(() => delivered(s, 'same'), 'the first stream');
    s.send(subscribe('same'));
    expect((await s.closed).code).toBe(4409);
    expect(h.sandbox.calls('listTunnels')).toBe(1);
    await until(() => h.gateway.live.count() === 0, 'the stream to end', 10_000);
  });

  it('no connection_init: the socket is closed with 4408 after the init wait (3 s), no upstream call', async () => {
    const h = await stack();
    const s = await socket(h);
    const closed = await Promise.race([
      s.closed,
      new Promise<undefined>((resolve) => setTimeout(resolve, 10_000)),
    ]);
    expect(closed?.code).toBe(4408);
    expect(s.messages).toEqual([]);
    expect(h.sandbox.calls()).toBe(0);
  });

  it('a message that is not JSON, or of an unknown type, closes the socket with 4400', async () => {
    const h = await stack();
    for (const bad of ['{ not json', JSON.stringify({ type: 'gimme', id: 'x' })]) {
      const s = await socket(h);
      await s.init();
      s.send(bad);
      expect((await s.closed).code).toBe(4400);
    }
    // Before connection_init too: the rule is the protocol's, not the session's.
    const early = await socket(h);
    early.send('{ not json');
    expect((await early.closed).code).toBe(4400);
    expect(h.sandbox.calls()).toBe(0);
  });

  it('a 12 MB frame closes the socket with 1009 (maxPayload = MAX_BODY_BYTES) and prints nothing', async () => {
    const h = await stack();
    const s = await socket(h);
    await s.init();
    const printed = vi.spyOn(console, 'error');
    s.send(
      JSON.stringify({
        type: 'subscribe',
        id: 'big',
        payload: { query: `#${'x'.repeat(12 * 1024 * 1024)}` },
      }),
    );
    try {
      expect((await s.closed).code).toBe(1009);
      // ws emits the server socket's 'error' in the same turn as it sends the close frame.
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
    expect(h.sandbox.calls()).toBe(0);
    // The gateway still serves other sockets.
    const next = await socket(h);
    await next.init();
    expect(h.config.limits.maxBodyBytes).toBeLessThan(12 * 1024 * 1024);
  });

  it('LIVE_MAX_SUBSCRIPTIONS = 5 refuses the sixth stream, across sockets and credentials', async () => {
    const h = await stack({ LIVE_MAX_SUBSCRIPTIONS: '5' });
    const a = await socket(h);
    const b = await socket(h);
    const c = await socket(h);
    await a.init(KEY);
    await b.init(OTHER_KEY);
    await c.init(KEY);
    for (const id of ['a1', 'a2', 'a3']) a.send(subscribe(id));
    for (const id of ['b1', 'b2']) b.send(subscribe(id));
    await until(() => ['a1', 'a2', 'a3'].every((id) => delivered(a, id)), 'the streams of a');
    await until(() => ['b1', 'b2'].every((id) => delivered(b, id)), 'the streams of b');
    c.send(subscribe('c1'));
    await until(() => ended(c, 'c1'), 'the sixth stream to be refused');
    expect(codesOf(c.of('c1'))).toEqual(['RATE_LIMITED']);
    expect(h.gateway.live.count()).toBe(5);
    // One walk per credential; the refused stream started nothing.
    expect(h.sandbox.calls('listTunnels')).toBe(2);
    expect(h.sandbox.calls()).toBe(2);
    for (const s of [a, b, c]) expect(s.ws.readyState).toBe(WebSocket.OPEN);
  });
});
