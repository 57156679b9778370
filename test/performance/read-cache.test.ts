// The per-credential read cache (CACHE_TTL_MS), over HTTP against the stand-in, with exact
// upstream call counts: a hit makes no call, a write through the credential clears it, and
// another credential is never served from it.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, makeTunnels, newId } from '../../src/sandbox';
import { KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const edge = newId('edghts');
const route = newId('edghtsrt');
const backendA = newId('bkdtg');
const backendB = newId('bkdfo');

const seed = (tunnelSeed: number): AccountSeed => ({
  tunnels: makeTunnels(5, { seed: tunnelSeed }),
  edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backendA, enabled: true } }] }],
  backends: [backendA, backendB],
});

const LIST = 'query { tunnels(first: 3) { edges { node { id region } } } }';
const ONE = 'query($id: ID!) { tunnel(id: $id) { id region } }';
const READ = `query { httpsEdgeRouteBackend(edgeId: "${edge}", routeId: "${route}") { enabled backend { id } } }`;
const REPLACE = `mutation($backendId: ID!) {
  replaceHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}", backendId: $backendId }) {
    __typename
  }
}`;

const newestIds = (account: AccountSeed, n: number): string[] =>
  (account.tunnels ?? [])
    .map((t) => t.id)
    .sort()
    .reverse()
    .slice(0, n);

describe('per-credential read cache (CACHE_TTL_MS)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed(1), [OTHER_KEY]: seed(2) },
      env: { CACHE_TTL_MS: '60000' },
    });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.seed(KEY, seed(1));
    stack.sandbox.seed(OTHER_KEY, seed(2));
    // Writes clear the credential's entries: one per key leaves each test a cold cache.
    return Promise.all(
      [KEY, OTHER_KEY].map((key) =>
        stack.gql(REPLACE, { backendId: backendA }, { key }).then(() => undefined),
      ),
    ).then(() => stack.sandbox.resetCalls());
  });

  it('answers a repeated read from the cache: one upstream call for two operations', async () => {
    const first = await stack.gql(LIST);
    const second = await stack.gql(LIST);
    expect(second.body).toEqual(first.body);
    expect(first.body.errors).toBeUndefined();
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
  });

  it('reads tunnels listed earlier by id with no upstream call', async () => {
    await stack.gql(LIST);
    const [id] = newestIds(stack.sandbox.account(KEY), 1);
    const { body } = await stack.gql(ONE, { id });
    expect(body).toEqual({ data: { tunnel: { id, region: expect.any(String) } } });
    expect(stack.sandbox.calls()).toBe(1);
    expect(stack.sandbox.calls('getTunnel')).toBe(0);
  });

  it('caches a read by id and an absent tunnel alike', async () => {
    const [id] = newestIds(stack.sandbox.account(KEY), 1);
    const missing = newId('tn');
    for (let i = 0; i < 2; i += 1) {
      expect((await stack.gql(ONE, { id })).body.data).toEqual({
        tunnel: { id, region: expect.any(String) },
      });
      expect((await stack.gql(ONE, { id: missing })).body.data).toEqual({ tunnel: null });
    }
    expect(stack.sandbox.calls('getTunnel')).toBe(2);
  });

  it('does not cache failed reads', async () => {
    stack.sandbox.inject('listTunnels', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_400' });
    const failed = await stack.gql(LIST);
    expect(failed.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const ok = await stack.gql(LIST);
    expect(ok.body.errors).toBeUndefined();
    expect(stack.sandbox.calls('listTunnels')).toBe(2);
  });

  it('a write through the credential clears its entries: the next read calls again and sees the write', async () => {
    expect((await stack.gql(READ)).body.data).toEqual({
      httpsEdgeRouteBackend: { enabled: true, backend: { id: backendA } },
    });
    await stack.gql(READ);
    await stack.gql(LIST);
    expect(stack.sandbox.calls('getBackend')).toBe(1);

    const write = await stack.gql(REPLACE, { backendId: backendB });
    expect(write.body.data).toEqual({
      replaceHttpsEdgeRouteBackend: { __typename: 'ReplaceHttpsEdgeRouteBackendPayload' },
    });

    expect((await stack.gql(READ)).body.data).toEqual({
      httpsEdgeRouteBackend: { enabled: true, backend: { id: backendB } },
    });
    await stack.gql(LIST);
    expect(stack.sandbox.calls('getBackend')).toBe(2);
    expect(stack.sandbox.calls('listTunnels')).toBe(2);
    expect(stack.sandbox.calls('replaceBackend')).toBe(1);
  });

  it('a failed write clears the entries too (it may have landed)', async () => {
    await stack.gql(READ);
    stack.sandbox.inject('replaceBackend', { kind: 'status', status: 500 });
    const write = await stack.gql(REPLACE, { backendId: backendB });
    expect(write.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    await stack.gql(READ);
    expect(stack.sandbox.calls('getBackend')).toBe(2);
  });

  it('never serves another credential from it', async () => {
    const mine = await stack.gql(LIST, undefined, { key: KEY });
    const theirs = await stack.gql(LIST, undefined, { key: OTHER_KEY });
    expect(stack.sandbox.calls('listTunnels', KEY)).toBe(1);
    expect(stack.sandbox.calls('listTunnels', OTHER_KEY)).toBe(1);
    const ids = (r: typeof mine) =>
      ((r.body.data?.tunnels ?? { edges: [] }) as { edges: { node: { id: string } }[] }).edges.map(
        (e) => e.node.id,
      );
    expect(ids(mine)).toEqual(newestIds(stack.sandbox.account(KEY), 3));
    expect(ids(theirs)).toEqual(newestIds(stack.sandbox.account(OTHER_KEY), 3));
    expect(ids(theirs)).not.toEqual(ids(mine));
  });

  it("another credential's write leaves this credential's entries alone", async () => {
    await stack.gql(READ, undefined, { key: KEY });
    await stack.gql(REPLACE, { backendId: backendB }, { key: OTHER_KEY });
    expect((await stack.gql(READ, undefined, { key: KEY })).body.data).toEqual({
      httpsEdgeRouteBackend: { enabled: true, backend: { id: backendA } },
    });
    expect(stack.sandbox.calls('getBackend', KEY)).toBe(1);
  });

  it('does not store a read that was under way when a write through the credential landed', async () => {
    stack.sandbox.setLatency('getBackend', 300);
    try {
      const slowRead = stack.gql(READ);
      // The read has reached the upstream (so the gateway started it) before the write is sent.
      while (stack.sandbox.calls('getBackend') === 0) await sleep(5);
      await stack.gql(REPLACE, { backendId: backendB });
      await slowRead;
    } finally {
      stack.sandbox.clearFaults();
    }
    expect((await stack.gql(READ)).body.data).toEqual({
      httpsEdgeRouteBackend: { enabled: true, backend: { id: backendB } },
    });
    expect(stack.sandbox.calls('getBackend')).toBe(2);
  });

  it('a read after a write makes its own call rather than join one that started before the write', async () => {
    // The stand-in answers at the end of its latency, so both reads see the write; the count
    // shows that the later read did not take the earlier one's answer (the real upstream's may
    // predate the write).
    stack.sandbox.setLatency('getBackend', 300);
    let after: Awaited<ReturnType<Stack['gql']>>;
    try {
      const slowRead = stack.gql(READ);
      while (stack.sandbox.calls('getBackend') === 0) await sleep(5);
      await stack.gql(REPLACE, { backendId: backendB });
      [, after] = await Promise.all([slowRead, stack.gql(READ)]);
    } finally {
      stack.sandbox.clearFaults();
    }
    expect(after.body.data).toEqual({ httpsEdgeRouteBackend: { enabled: true, backend: { id: backendB } } });
    expect(stack.sandbox.calls('getBackend')).toBe(2);
  });

  it('drops what was read while a write was under way once the write ends', async () => {
    stack.sandbox.setLatency('replaceBackend', 300);
    try {
      const slowWrite = stack.gql(REPLACE, { backendId: backendB });
      while (stack.sandbox.calls('replaceBackend') === 0) await sleep(5);
      // Read (and cached) before the write lands upstream: the old backend.
      expect((await stack.gql(READ)).body.data).toEqual({
        httpsEdgeRouteBackend: { enabled: true, backend: { id: backendA } },
      });
      await slowWrite;
    } finally {
      stack.sandbox.clearFaults();
    }
    expect((await stack.gql(READ)).body.data).toEqual({
      httpsEdgeRouteBackend: { enabled: true, backend: { id: backendB } },
    });
    expect(stack.sandbox.calls('getBackend')).toBe(2);
  });
});

describe('read cache bounds', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('is off by default: every operation calls the upstream', async () => {
    stack = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed(1) } });
    await stack.gql(LIST);
    await stack.gql(LIST);
    expect(stack.sandbox.calls('listTunnels')).toBe(2);
  });

  it('holds CACHE_MAX_ENTRIES entries at most, the least recently used going first', async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed(1) },
      env: { CACHE_TTL_MS: '60000', CACHE_MAX_ENTRIES: '2' },
    });
    const [a, b, c] = newestIds(stack.sandbox.account(KEY), 3);
    for (const id of [a, b, c]) await stack.gql(ONE, { id });
    expect(stack.sandbox.calls('getTunnel')).toBe(3);
    await stack.gql(ONE, { id: c });
    expect(stack.sandbox.calls('getTunnel')).toBe(3);
    await stack.gql(ONE, { id: a });
    expect(stack.sandbox.calls('getTunnel')).toBe(4);
  });

  it('serves an entry for CACHE_TTL_MS only', async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed(1) },
      env: { CACHE_TTL_MS: '50' },
    });
    await stack.gql(LIST);
    await sleep(150);
    await stack.gql(LIST);
    expect(stack.sandbox.calls('listTunnels')).toBe(2);
  });
});
