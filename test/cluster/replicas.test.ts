// Three gateway processes sharing one Redis in front of the stand-in (rate limit on, 120 per key, as
// the real API): the upstream budget holds across replicas, a 429 seen by one pauses the others,
// the read cache is shared, no credential reaches Redis, and the replicas keep serving through a
// Redis outage and share their budget again once it is back.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountSeed, makeTunnels, newId, type Sandbox, startSandbox } from '../../src/sandbox';
import { MESSAGES } from '../../src/upstream/call/messages';
import { bundleMain, type GatewayProcess, startProcess } from '../operability/process';
import { budgetAfter } from '../support/budget';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { type GqlResult, postGraphQL } from '../support/stack';

const LIMIT = 20;
/** Reads may fill the window up to the last tenth, which is kept for writes. */
const READ_SHARE = LIMIT - Math.floor(LIMIT / 10);
const KEYS = {
  burst: 'cluster-burst-key-0001',
  pause: 'cluster-pause-key-0002',
  cache: 'cluster-cache-key-0003',
  outage: 'cluster-outage-key-0004',
  load: 'cluster-load-key-0005',
  after: 'cluster-after-key-0006',
  figure: 'cluster-figure-key-0007',
} as const;

const edge = newId('edghts');
const route = newId('edghtsrt');
const backendA = newId('bkdtg');
const backendB = newId('bkdtg');
const tunnelsOf = (seed: number) => makeTunnels(40, { seed });
const accounts: Record<string, AccountSeed> = Object.fromEntries(
  Object.values(KEYS).map((key, i) => [
    key,
    {
      tunnels: tunnelsOf(i + 1),
      edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backendA, enabled: true } }] }],
      backends: [backendA, backendB],
    },
  ]),
);
const idsOf = (key: string) => (accounts[key]?.tunnels ?? []).map((t) => t.id);

const NODE = 'query($id: ID!) { node(id: $id) { id } }';
const LIST = 'query { tunnels(first: 5) { nodes { id } } }';
const BACKEND = `query { httpsEdgeRouteBackend(edgeId: "${edge}", routeId: "${route}") { backend { id } } }`;
const REPLACE = `mutation($backendId: ID!) {
  replaceHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}", backendId: $backendId }) { __typename }
}`;

const until = async (condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** An answer is either data or the gateway's own budget refusal: never an upstream 429 or another error. */
function classify(result: GqlResult): 'data' | 'budget' {
  const errors = result.body.errors ?? [];
  if (errors.length === 0) return 'data';
  expect(errors.map((e) => e.extensions?.code)).toEqual(['RATE_LIMITED']);
  const extensions = errors[0]?.extensions ?? {};
  expect(extensions.upstream).toBeUndefined();
  const retryAfter = extensions.retryAfter as number;
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  return 'budget';
}

describe.runIf(redisTestsRun)('three replicas sharing Redis', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let replicas: GatewayProcess[] = [];
  let removeBundle: () => void = () => undefined;

  const gql = (i: number, key: string, query: string, variables?: Record<string, unknown>) =>
    postGraphQL(`${replicas[i % replicas.length]?.base}/graphql`, query, variables, { key });
  const redisStates = () =>
    Promise.all(
      replicas.map(async (r) => {
        const body = (await (await fetch(`${r.base}/readiness`)).json()) as { redis?: { state: string } };
        return body.redis?.state;
      }),
    );

  const redisGauges = () =>
    Promise.all(
      replicas.map(
        async (r) => /^gateway_redis_up (\d)$/m.exec(await (await fetch(`${r.base}/metrics`)).text())?.[1],
      ),
    );

  beforeAll(async () => {
    [redis, sandbox] = await Promise.all([
      RedisServer.start(),
      startSandbox({ edgesWritable: true, accounts }),
    ]);
    const bundle = await bundleMain();
    removeBundle = bundle.remove;
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      NGROK_API_URL: sandbox.url,
      REDIS_URL: redis.url,
      REDIS_FALLBACK_REPLICAS: '3',
      UPSTREAM_RATE_LIMIT_PER_MIN: String(LIMIT),
      CACHE_TTL_MS: '60000',
      LOG_LEVEL: 'info',
    };
    replicas = await Promise.all([0, 1, 2].map(() => startProcess(bundle.main, env)));
    await until(async () => (await redisStates()).every((s) => s === 'up'), 'every replica on Redis');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    removeBundle();
    await sandbox?.close();
    await redis?.stop();
  });

  it('keeps the budget across replicas under a round-robin burst; writes keep their share', async () => {
    const ids = idsOf(KEYS.burst);
    const results = await Promise.all(ids.map((id, i) => gql(i, KEYS.burst, NODE, { id })));
    const kinds = results.map(classify);
    expect(kinds.filter((k) => k === 'data')).toHaveLength(READ_SHARE);
    expect(kinds.filter((k) => k === 'budget')).toHaveLength(ids.length - READ_SHARE);
    expect(sandbox.calls(undefined, KEYS.burst)).toBe(READ_SHARE);
    // Each answer that reached the upstream says how many reads were left when it made its call, the
    // holds of the burst's operations still running counted as used: never more than the share less
    // its own call, and the last one admitted (its call made when all the share was held) says 0.
    // Its calls left in all count only calls made: at least the writes' tenth, never the whole limit.
    const budgets = results
      .filter((r) => r.body.errors === undefined)
      .map((r) => r.body.extensions?.upstreamBudget as ReturnType<typeof budgetAfter>);
    const reads = budgets.map((b) => b.shares.reads.remaining);
    expect(reads).toHaveLength(READ_SHARE);
    expect(reads.every((n) => n >= 0 && n < READ_SHARE)).toBe(true);
    expect(reads).toContain(0);
    expect(budgets.every((b) => b.remaining >= LIMIT - READ_SHARE && b.remaining < LIMIT)).toBe(true);
    // The calls kept for writes are there on any replica.
    const write = await gql(1, KEYS.burst, REPLACE, { backendId: backendB });
    expect(write.body.errors).toBeUndefined();
    expect(sandbox.calls(undefined, KEYS.burst)).toBeLessThanOrEqual(LIMIT);
  });

  it("reports one figure across replicas: each answer counts every replica's calls, by kind", async () => {
    const [a, b, c, d] = idsOf(KEYS.figure);
    const budgetOf = (r: GqlResult) => r.body.extensions?.upstreamBudget;
    expect(budgetOf(await gql(0, KEYS.figure, NODE, { id: a }))).toEqual(budgetAfter(LIMIT, { reads: 1 }));
    expect(budgetOf(await gql(1, KEYS.figure, NODE, { id: b }))).toEqual(budgetAfter(LIMIT, { reads: 2 }));
    expect(budgetOf(await gql(2, KEYS.figure, NODE, { id: c }))).toEqual(budgetAfter(LIMIT, { reads: 3 }));
    const write = await gql(0, KEYS.figure, REPLACE, { backendId: backendB });
    expect(budgetOf(write)).toEqual(budgetAfter(LIMIT, { reads: 3, writes: 1 }));
    const last = await gql(1, KEYS.figure, NODE, { id: d });
    expect(budgetOf(last)).toEqual(budgetAfter(LIMIT, { reads: 4, writes: 1 }));
    expect(sandbox.calls(undefined, KEYS.figure)).toBe(5);
  });

  it('shares the pause after a 429: the other replicas send nothing for the credential', async () => {
    const [first, second, third] = idsOf(KEYS.pause);
    sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: 30 });
    const hit = await gql(0, KEYS.pause, NODE, { id: first });
    expect(hit.body.errors?.[0]?.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter: 30,
      upstream: { status: 429 },
    });
    expect(sandbox.calls(undefined, KEYS.pause)).toBe(1);
    // Thirty seconds of pause outlast the operation's deadline: refused at once, nothing sent.
    for (const [i, id] of [
      [1, second],
      [2, third],
    ] as const) {
      const paused = await gql(i, KEYS.pause, NODE, { id });
      const error = paused.body.errors?.[0];
      expect(error?.message).toBe(MESSAGES.PAUSED);
      expect(error?.extensions?.code).toBe('RATE_LIMITED');
      expect(error?.extensions?.retryAfter as number).toBeGreaterThanOrEqual(20);
    }
    expect(sandbox.calls(undefined, KEYS.pause)).toBe(1);
  });

  it('shares the read cache: a read on one replica serves the others; a write anywhere clears it', async () => {
    const key = KEYS.cache;
    const [id] = idsOf(key);
    expect((await gql(0, key, NODE, { id })).body.data).toEqual({ node: { id } });
    expect((await gql(1, key, NODE, { id })).body.data).toEqual({ node: { id } });
    expect(sandbox.calls('getTunnel', key)).toBe(1);
    // A list read on one replica primes every listed tunnel for the others.
    const listed = (await gql(2, key, LIST)).body.data?.tunnels as { nodes: { id: string }[] };
    const other = listed.nodes[3]?.id;
    expect((await gql(0, key, NODE, { id: other })).body.data).toEqual({ node: { id: other } });
    expect(sandbox.calls('getTunnel', key)).toBe(1);

    expect((await gql(0, key, BACKEND)).body.data).toEqual({
      httpsEdgeRouteBackend: { backend: { id: backendA } },
    });
    expect((await gql(2, key, BACKEND)).body.data).toEqual({
      httpsEdgeRouteBackend: { backend: { id: backendA } },
    });
    expect(sandbox.calls('getBackend', key)).toBe(1);
    expect((await gql(1, key, REPLACE, { backendId: backendB })).body.errors).toBeUndefined();
    expect((await gql(0, key, BACKEND)).body.data).toEqual({
      httpsEdgeRouteBackend: { backend: { id: backendB } },
    });
    expect(sandbox.calls('getBackend', key)).toBe(2);
  });

  it('keeps no credential in any Redis key or value', async () => {
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await admin.scan(cursor, 'COUNT', 1000);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
      expect(keys.length).toBeGreaterThan(0);
      const texts: string[] = [...keys];
      for (const key of keys) {
        const type = await admin.type(key);
        if (type === 'string') texts.push((await admin.get(key)) ?? '');
        else if (type === 'hash') texts.push(JSON.stringify(await admin.hgetall(key)));
        else if (type === 'zset') texts.push(...(await admin.zrange(key, 0, -1, 'WITHSCORES')));
        else if (type === 'set') texts.push(...(await admin.smembers(key)));
        else if (type === 'list') texts.push(...(await admin.lrange(key, 0, -1)));
      }
      // The stored answers are there (the cache test's tunnel), the credentials are not.
      expect(texts.some((t) => t.includes(idsOf(KEYS.cache)[0] ?? '?'))).toBe(true);
      for (const credential of Object.values(KEYS)) {
        expect(texts.filter((t) => t.includes(credential))).toEqual([]);
      }
    } finally {
      admin.disconnect();
    }
  });

  it('serves through a Redis outage with per-replica budgets, then shares the budget again', async () => {
    // Load all along: every answer is data or the gateway's own budget refusal.
    let loading = true;
    const seen: ('data' | 'budget')[] = [];
    const loadIds = idsOf(KEYS.load);
    const load = (async () => {
      for (let i = 0; loading; i += 1) {
        seen.push(classify(await gql(i, KEYS.load, NODE, { id: loadIds[i % loadIds.length] })));
        // A steady trickle, not a spin: the load only has to span the outage.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    await redis.stop();
    await until(async () => (await redisStates()).every((s) => s === 'down'), 'every replica off Redis');
    expect(await redisGauges()).toEqual(['0', '0', '0']);
    // Each replica keeps to its share of the limit (REDIS_FALLBACK_REPLICAS=3): 6 reads each at most.
    const share = Math.floor(LIMIT / 3);
    const outageIds = idsOf(KEYS.outage);
    const during = await Promise.all(outageIds.map((id, i) => gql(i, KEYS.outage, NODE, { id })));
    const answered = during.map(classify).filter((k) => k === 'data').length;
    expect(answered).toBe(3 * share);
    expect(sandbox.calls(undefined, KEYS.outage)).toBe(3 * share);

    await redis.restart();
    await until(async () => (await redisStates()).every((s) => s === 'up'), 'every replica back on Redis');
    expect(await redisGauges()).toEqual(['1', '1', '1']);
    const ids = idsOf(KEYS.after);
    const after = await Promise.all(ids.map((id, i) => gql(i, KEYS.after, NODE, { id })));
    expect(after.map(classify).filter((k) => k === 'data')).toHaveLength(READ_SHARE);
    expect(sandbox.calls(undefined, KEYS.after)).toBe(READ_SHARE);

    loading = false;
    await load;
    expect(seen.filter((k) => k === 'data').length).toBeGreaterThan(0);
    // Never more than the upstream allows: no 429 reached a client (classify), and the count says so.
    expect(sandbox.calls(undefined, KEYS.load)).toBeLessThanOrEqual(120);
  });
});
