// includeCurrent on a large account (2,000 endpoints with 4,000 bytes of metadata each, about 8 MB
// as events): the current list's events are made one at a time as the subscriber reads, and count
// against LIVE_MAX_SUBSCRIBER_BUFFER_BYTES. A transport that takes events and writes none is dropped
// at the cap, handed a few dozen events rather than the list; SSE and graphql-ws subscribers whose
// sockets stop reading on the then quiet account are dropped after LIVE_MAX_SUBSCRIBER_STALL_MS. A
// reader of the same account gets the whole list and the next change. Before, each subscriber's
// list was built whole up front, outside the cap, and nothing dropped a stalled subscriber on a
// quiet account.
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors';
import { eventBytes, type SubscriberLink } from '../../src/live/delivery/events/backlog';
import { upstreamKey } from '../../src/upstream';
import { cloudSeeds, POLICY } from './endpoint-support';
import { stalledSse, wsSubscriber } from './slow-clients';
import { ENDPOINT_EVENTS, KEY, metric, type Stack, sse, startLiveStack, until } from './support';

const ENDPOINTS = 2_000;
const METADATA = 'm'.repeat(4_000);
const CAP = 256 * 1024;
const QUERY = ENDPOINT_EVENTS('id metadata');
/** The same, with includeCurrent in the text: the stalled clients send no variables. */
const CURRENT =
  'subscription { endpointEvents(includeCurrent: true) { kind endpointId observedAt endpoint { id metadata } } }';

const startLarge = (stallMs: number): Promise<Stack> =>
  startLiveStack({
    accounts: {
      [KEY]: {
        tunnels: [],
        endpoints: cloudSeeds(ENDPOINTS, 'big').map((e) => ({ ...e, metadata: METADATA })),
      },
    },
    env: { LIVE_MAX_SUBSCRIBER_BUFFER_BYTES: String(CAP), LIVE_MAX_SUBSCRIBER_STALL_MS: String(stallMs) },
    // Long enough that only the gateway's bounds drop anyone here (a paused socket misses its pongs).
    keepAliveMs: 120_000,
  });

const dropped = (stack: Stack, labels: Record<string, string>) =>
  metric(stack.gateway, 'gateway_live_subscribers_dropped_total', labels);

describe('the current list of a large account, bounded', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  /** A reader of the whole list: it gets every endpoint once, then a new one's ONLINE. */
  async function reader(stack: Stack) {
    const s = await sse(stack.url, KEY, { includeCurrent: true }, QUERY);
    cleanup.push(() => s.close());
    return s;
  }

  async function readerGetsTheNextChange(stack: Stack, s: Awaited<ReturnType<typeof reader>>) {
    await s.received(ENDPOINTS, 60_000);
    expect(new Set(s.seen()).size).toBe(ENDPOINTS);
    const added = stack.sandbox.addEndpoint(KEY, {
      url: 'https://after.example.com',
      traffic_policy: POLICY,
    });
    await s.received(ENDPOINTS + 1, 60_000);
    expect(s.seen()[ENDPOINTS]).toBe(`ONLINE:${added.id}`);
    expect(s.ended).toBeUndefined();
  }

  it('a transport that writes nothing is handed events only up to the cap, then dropped', async () => {
    const stack = await startLarge(600_000);
    cleanup.push(() => stack.close());
    const s = await reader(stack);

    // A transport that takes every event it is handed and writes none of it to its socket.
    let unsent = 0;
    const drops: string[] = [];
    const link: SubscriberLink = {
      transport: 'http',
      backlogBytes: () => unsent,
      drop: (reason) => drops.push(reason),
    };
    const stream = stack.gateway.live.subscribe(upstreamKey(KEY), 'endpoints', true, link);
    let taken = 0;
    let last: GatewayError | undefined;
    for await (const item of stream) {
      if (item instanceof GatewayError) {
        last = item;
        break;
      }
      taken += 1;
      unsent += eventBytes(item);
      if (taken >= ENDPOINTS) break;
    }
    expect(last?.code).toBe('RATE_LIMITED');
    expect(last?.message).toBe(
      `Read too slowly: over ${CAP} bytes of events waited unread; subscribe again with includeCurrent.`,
    );
    expect(drops).toEqual([last?.message]);
    // Handed no more than fits under the cap (each event is over 4,000 bytes), the next one refused.
    expect(unsent).toBeLessThanOrEqual(CAP);
    expect(taken).toBeGreaterThan(CAP / 8_000);
    expect(taken).toBeLessThanOrEqual(Math.floor(CAP / 4_000));
    expect(await dropped(stack, { transport: 'http', cause: 'size' })).toBe(1);
    expect(await metric(stack.gateway, 'gateway_live_subscriber_held_bytes_peak')).toBeLessThanOrEqual(CAP);
    expect(stack.gateway.live.count(KEY)).toBe(1);

    await readerGetsTheNextChange(stack, s);
  }, 180_000);

  it('SSE and graphql-ws subscribers that stop reading on a quiet account are dropped by time', async () => {
    const stack = await startLarge(1_000);
    cleanup.push(() => stack.close());
    const stalled = await stalledSse(stack.base, KEY, CURRENT);
    cleanup.push(() => void stalled.socket.destroy());
    const paused = await wsSubscriber(stack.wsUrl, KEY, CURRENT);
    cleanup.push(() => paused.close());
    // Paused once subscribed (a client that never reads never sees the connection_ack).
    await until(() => stack.gateway.live.count(KEY) === 2, 'both stalled subscribers subscribed');
    paused.socket().pause();
    const s = await reader(stack);
    await s.received(ENDPOINTS, 60_000);

    // Nothing changes on the account: only the time they read nothing drops them.
    await until(
      async () =>
        (await dropped(stack, { transport: 'http', cause: 'time' })) === 1 &&
        (await dropped(stack, { transport: 'websocket', cause: 'time' })) === 1,
      'the two stalled subscribers dropped by time',
      60_000,
    );
    expect(await dropped(stack, { cause: 'size' })).toBe(0);
    const lines = stack.lines().filter((l) => l.msg === 'live subscriber dropped: it read too slowly');
    expect(lines.map((l) => [l.transport, l.cause]).sort()).toEqual([
      ['http', 'time'],
      ['websocket', 'time'],
    ]);
    // Their connections are cut though they never read again; nothing is held for them.
    await until(async () => (await stack.connections()) === 1, 'the stalled connections closed', 30_000);
    expect(stack.gateway.live.count(KEY)).toBe(1);
    expect(await metric(stack.gateway, 'gateway_live_subscriber_held_bytes_peak')).toBeLessThanOrEqual(CAP);

    // What they got before, read now: a part of the list, in the reader's order.
    stalled.socket.resume();
    await stalled.closed;
    const got = [...stalled.body().matchAll(/"endpointId":"(ep_\w+)"/g)].map((m) => `ONLINE:${m[1]}`);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(ENDPOINTS);
    expect(got).toEqual(s.seen().slice(0, got.length));

    await readerGetsTheNextChange(stack, s);
  }, 180_000);
});
