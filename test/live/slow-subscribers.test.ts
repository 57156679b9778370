// One client that does not read cannot take the gateway down: under sustained churn of 16 KB events,
// an SSE subscriber whose socket stops reading, a graphql-ws one whose TCP socket is paused, and an
// SSE and a graphql-ws one that read on at 0.5 MB/s (alive to any keep-alive, slower than the events)
// are each dropped once more than LIVE_MAX_SUBSCRIBER_BUFFER_BYTES would wait for them, counted, and
// their connections closed, while the subscribers of the same account that read get every event.
// Before, the gateway queued events per subscriber without bound and died with "JavaScript heap out
// of memory"; subscriber-memory.test.ts measures the heap.
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors';
import type { TunnelEventPayload } from '../../src/live/kinds/tunnel-events';
import { upstreamKey } from '../../src/upstream';
import { largeChurn, METADATA_BYTES } from './large-churn';
import { QUERY, replay, stalledSse, throttle, wsSubscriber } from './slow-clients';
import { type EventResult, KEY, metric, type Stack, sse, startLiveStack, until } from './support';

const CAP = 1024 * 1024;

const label = (r: EventResult) =>
  r.data?.tunnelEvents ? `${r.data.tunnelEvents.kind}:${r.data.tunnelEvents.tunnelId}` : 'error';

/** The events of an SSE body, in order, as kind:tunnelId (an error as its code); `complete` as such. */
function sseEvents(text: string): string[] {
  return [...text.matchAll(/^event: (\w+)\ndata: ?(.*)\n\n/gm)].map(([, event, data]) => {
    if (event === 'complete') return 'complete';
    const result = JSON.parse(data ?? '{}') as EventResult;
    return result.errors ? String(result.errors[0]?.extensions?.code) : label(result);
  });
}

describe('slow subscribers', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it('SSE and graphql-ws subscribers that stop reading or read at 0.5 MB/s are dropped at the cap; readers miss nothing', async () => {
    const stack: Stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: [] } },
      env: { LIVE_MAX_SUBSCRIBER_BUFFER_BYTES: String(CAP) },
      // Long enough that only the cap drops anyone here (a paused socket misses its pongs).
      keepAliveMs: 120_000,
    });
    cleanup.push(() => stack.close());

    // The reference: the account's stream read in process, as fast as it comes.
    const reference: string[] = [];
    let produced = 0;
    const stream = stack.gateway.live.subscribe(upstreamKey(KEY), 'tunnels', false);
    cleanup.push(async () => {
      await stream.return?.();
    });
    void (async () => {
      for await (const item of stream) {
        if (item instanceof GatewayError) break;
        reference.push(`${item.kind}:${(item as TunnelEventPayload).tunnelId}`);
        produced += JSON.stringify(item).length;
      }
    })();

    // Two readers, SSE and graphql-ws; then the four that fall behind.
    const reader = await sse(stack.url, KEY, {}, QUERY);
    cleanup.push(() => reader.close());
    const wsReader = await wsSubscriber(stack.wsUrl);
    cleanup.push(() => wsReader.close());
    const stalled = await stalledSse(stack.base);
    const slowSse = await stalledSse(stack.base);
    cleanup.push(
      () => void stalled.socket.destroy(),
      () => void slowSse.socket.destroy(),
    );
    const paused = await wsSubscriber(stack.wsUrl);
    cleanup.push(() => paused.close());
    const slowWs = await wsSubscriber(stack.wsUrl);
    cleanup.push(() => slowWs.close());
    await until(() => stack.gateway.live.count(KEY) === 7, 'seven subscriptions');
    expect(await stack.connections()).toBe(6);
    paused.socket().pause();
    cleanup.push(throttle(slowWs.socket(), 500_000), throttle(slowSse.socket, 500_000));

    const churn = largeChurn(stack.sandbox, KEY);
    cleanup.push(() => churn.stop());
    const dropped = (transport: string) =>
      metric(stack.gateway, 'gateway_live_subscribers_dropped_total', { transport });
    await until(
      async () => (await dropped('http')) === 2 && (await dropped('websocket')) === 2,
      'the four slow subscribers dropped',
      120_000,
    );
    // Only the readers' connections remain: the stalled ones are cut though they never read again.
    await until(async () => (await stack.connections()) === 2, 'the slow connections closed', 30_000);
    expect(stack.lines().filter((l) => l.msg === 'live subscriber dropped: it read too slowly')).toHaveLength(
      4,
    );
    // The churn goes on to many times the cap.
    await until(() => produced >= 16 * CAP, 'sixteen times the cap of events', 120_000);
    churn.stop();
    const online = () => (stack.sandbox.account(KEY).tunnels ?? []).map((t) => t.id).sort();
    await until(() => JSON.stringify(replay(reference)) === JSON.stringify(online()), 'the last state');
    await until(
      () => reader.results.length >= reference.length && wsReader.results.length >= reference.length,
      'the readers to catch up',
    );

    // The readers got every event, in order, large ones, and stay subscribed.
    expect(reader.results.map(label)).toEqual(reference);
    expect(wsReader.results.map(label)).toEqual(reference);
    const sizes = new Set(reader.results.map((r) => String(r.data?.tunnelEvents.tunnel.metadata).length));
    expect([...sizes]).toEqual([METADATA_BYTES]);
    expect([reader.ended, wsReader.ended]).toEqual([undefined, undefined]);
    expect(await metric(stack.gateway, 'gateway_live_subscriptions')).toBe(3);
    // Never more than the cap held for one subscriber, while the churn sent many times it.
    const peak = await metric(stack.gateway, 'gateway_live_subscriber_held_bytes_peak');
    expect(peak).toBeGreaterThan(CAP / 4);
    expect(peak).toBeLessThanOrEqual(CAP);

    // The slow readers reach the end: graphql-ws's close code and reason, SSE's error event then complete.
    const reason =
      /^Read too slowly: over 1048576 bytes of events waited unread; subscribe again with includeCurrent\.$/;
    await until(() => slowWs.closedWith() !== undefined, 'the slow graphql-ws reader to see the close');
    expect(slowWs.closedWith()).toEqual({ code: 1008, reason: expect.stringMatching(reason) });
    await slowSse.closed;
    const slowSseEvents = sseEvents(slowSse.body());
    expect(slowSseEvents.slice(-2)).toEqual(['RATE_LIMITED', 'complete']);
    expect(slowSse.body()).toMatch(/"message":"Read too slowly: over 1048576 bytes/);
    expect(slowSseEvents.slice(0, -2)).toEqual(reference.slice(0, slowSseEvents.length - 2));
    // The stalled ones, read now, got a part of the events in order, then the connection was cut.
    paused.socket().resume();
    stalled.socket.resume();
    await stalled.closed;
    await until(() => paused.closedWith() !== undefined, 'the paused client to see the close');
    const got = sseEvents(stalled.body());
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(reference.slice(0, got.length));
    const pausedGot = paused.results.filter((r) => r.data).map(label);
    expect(pausedGot).toEqual(reference.slice(0, pausedGot.length));
  }, 300_000);
});
