// Live queries whose clients stop reading, under sustained churn of 16 KB tunnels (each patch moves
// 100 of them by one, so replaces every metadata), cannot hold more than
// LIVE_MAX_SUBSCRIBER_BUFFER_BYTES: an SSE client whose socket reads nothing and a graphql-ws client
// whose TCP socket is paused are each dropped at the cap, counted and logged as slow subscribers
// are, and their connections closed, while a client of the same query that reads ends up holding
// exactly what the query answers without @live. Under a cap too large to reach, one that reads
// nothing is dropped once what its transport holds has not moved for LIVE_MAX_SUBSCRIBER_STALL_MS.
import { afterEach, describe, expect, it } from 'vitest';
import { postGraphQL } from '../support/stack';
import { largeChurn } from './large-churn';
import { type LiveClient, liveSse } from './live-query-support';
import { stalledSse, wsSubscriber } from './slow-clients';
import { KEY, metric, type Stack, startLiveStack, until } from './support';

const CAP = 256 * 1024;
const SELECTION = '{ tunnels(first: 100) { nodes { id metadata } pageInfo { hasNextPage } } }';
const LIVE = `query @live ${SELECTION}`;

describe('slow live query readers', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  /** A stack with `env`, a live query that reads (its first result in) and one over a socket that reads nothing. */
  async function readerAndStalled(env: Record<string, string>) {
    const stack: Stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: [] } },
      env,
      keepAliveMs: 120_000,
    });
    cleanup.push(() => stack.close());
    const reader: LiveClient = await liveSse(stack.url, KEY, LIVE);
    cleanup.push(() => reader.close());
    await reader.received(1);
    const stalled = await stalledSse(stack.base, KEY, LIVE);
    cleanup.push(() => void stalled.socket.destroy());
    return { stack, reader, stalled };
  }

  it('live queries not read are dropped at the cap; one that reads stays exact', async () => {
    const { stack, reader, stalled } = await readerAndStalled({
      LIVE_MAX_SUBSCRIBER_BUFFER_BYTES: String(CAP),
    });
    const paused = await wsSubscriber(stack.wsUrl, KEY, LIVE);
    cleanup.push(() => paused.close());
    await until(
      async () => (await metric(stack.gateway, 'gateway_live_queries')) === 3,
      'three live queries',
    );
    await until(() => paused.results.length > 0, 'the graphql-ws client to hold its first result');
    paused.socket().pause();

    const churn = largeChurn(stack.sandbox, KEY, { base: 100, distinct: true });
    cleanup.push(() => churn.stop());
    const dropped = (transport: string) =>
      metric(stack.gateway, 'gateway_live_subscribers_dropped_total', { transport, cause: 'size' });
    await until(
      async () => (await dropped('http')) === 1 && (await dropped('websocket')) === 1,
      'the two live queries not read to be dropped',
      120_000,
    );
    await until(async () => (await stack.connections()) === 1, 'their connections closed', 30_000);
    expect(stack.lines().filter((l) => l.msg === 'live subscriber dropped: it read too slowly')).toHaveLength(
      2,
    );
    // The churn goes on past many times the cap; the reader stays.
    const sent = () => metric(stack.gateway, 'gateway_live_query_payload_bytes_total', { kind: 'patch' });
    const before = await sent();
    await until(
      async () => (await sent()) >= before + 8 * CAP,
      'eight times the cap more of patches',
      120_000,
    );
    churn.stop();
    expect(await metric(stack.gateway, 'gateway_live_queries')).toBe(1);
    expect(reader.ended).toBeUndefined();

    // The reader holds what the plain query answers, once the last change is observed.
    const plain = async () =>
      JSON.stringify((await postGraphQL(stack.url, SELECTION, {}, { key: KEY })).body.data);
    await until(
      async () => JSON.stringify(await reader.data()) === (await plain()),
      'the reader to hold the plain answer',
      30_000,
    );
    // The ones not read, read now: each got its first result before its connection was cut (the
    // graphql-ws close frame waited behind the bytes it did not read, so the cut is all it sees).
    stalled.socket.resume();
    await stalled.closed;
    expect(stalled.body()).toMatch(/^:?\n*event: next\ndata: \{"data":\{"tunnels"/);
    expect(stalled.body()).toMatch(/"revision":1/);
    paused.socket().resume();
    await until(() => paused.closedWith() !== undefined, 'the paused client to see the close');
    expect(paused.closedWith()).toEqual({ code: 1006, reason: '' });
    expect(JSON.stringify(paused.results[0]?.data)).toMatch(/^\{"tunnels":\{"nodes":\[/);
  }, 300_000);

  it('a live query whose transport holds bytes that do not move is dropped after the stall time', async () => {
    const { stack, reader } = await readerAndStalled({
      LIVE_MAX_SUBSCRIBER_BUFFER_BYTES: String(256 * CAP),
      LIVE_MAX_SUBSCRIBER_STALL_MS: '1000',
    });
    await until(async () => (await metric(stack.gateway, 'gateway_live_queries')) === 2, 'two live queries');
    const churn = largeChurn(stack.sandbox, KEY, { base: 100, distinct: true });
    cleanup.push(() => churn.stop());
    const dropped = (cause: string) =>
      metric(stack.gateway, 'gateway_live_subscribers_dropped_total', { transport: 'http', cause });
    await until(async () => (await dropped('time')) === 1, 'the live query not read to be dropped', 120_000);
    await until(async () => (await stack.connections()) === 1, 'its connection closed', 30_000);
    churn.stop();
    expect(await dropped('size')).toBe(0);
    expect(await metric(stack.gateway, 'gateway_live_queries')).toBe(1);
    expect(reader.ended).toBeUndefined();
  }, 300_000);
});
