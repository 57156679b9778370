// Admission reserves across replicas: two gateways on one Redis share the credential's window, holds
// included, so five operations sent to both at once with room for one run once; what one replica's
// operation did not use is free for the other's as soon as it answers. With Redis down, each
// replica reserves from its own share (REDIS_FALLBACK_REPLICAS=1 here: the whole limit).
// UPSTREAM_RATE_LIMIT_PER_MIN=20: reads may fill 18 calls; the read cache (in Redis too) makes
// operations that find their reads cached make fewer calls than predicted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { type GqlResult, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const tunnels = () => makeTunnels(10, { seed: 36 });
const IDS = tunnels().map((t) => t.id);
/** One GET per id: predicted one call an id, made one an id the read cache does not answer. */
const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';

const codes = (answers: GqlResult[]) => answers.map((a) => a.body.errors?.[0]?.extensions?.code ?? 'ok');

describe.runIf(redisTestsRun)('admission reserves on two replicas sharing Redis', () => {
  let redis: RedisServer;
  let a: Stack;
  let b: Stack;
  beforeAll(async () => {
    redis = await RedisServer.start();
    const env = {
      REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: '500',
      REDIS_FALLBACK_REPLICAS: '1',
      UPSTREAM_RATE_LIMIT_PER_MIN: '20',
      CACHE_TTL_MS: '60000',
    };
    a = await startStack({
      accounts: { [KEY]: { tunnels: tunnels() }, [OTHER_KEY]: { tunnels: tunnels() } },
      env,
    });
    // The second replica talks to the first one's stand-in: one count of upstream calls.
    b = await startStack({ env, upstreamUrl: a.sandbox.url });
    await Promise.all([a.gateway.shared.redis?.whenUp(), b.gateway.shared.redis?.whenUp()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('five operations predicted 10 on two replicas at once, room for one: one runs, four refused with 0 calls', async () => {
    // 5 calls counted first (and those 5 tunnels cached): 13 left for reads.
    const warm = await a.gql(NODES, { ids: IDS.slice(0, 5) });
    expect(warm.upstreamCalls).toEqual({ predicted: 5, made: 5 });
    const answers = await Promise.all([a, b, a, b, a].map((replica) => replica.gql(NODES, { ids: IDS })));
    expect(codes(answers).sort()).toEqual([
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'ok',
    ]);
    const ran = answers.find((answer) => answer.body.errors === undefined);
    expect(ran?.body.data).toEqual({ nodes: IDS.map((id) => ({ id })) });
    expect(ran?.upstreamCalls).toEqual({ predicted: 10, made: 5 });
    for (const refused of answers.filter((answer) => answer !== ran)) {
      expect(refused.status).toBe(429);
      expect(refused.upstreamCalls).toEqual({ predicted: 10, made: 0 });
      expect(refused.body.errors?.[0]?.extensions?.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.body.errors?.[0]?.extensions?.retryAfter).toBeLessThanOrEqual(60);
    }
    expect(a.sandbox.calls(undefined, KEY)).toBe(10);
    // Its 5 unused holds went when it answered, on whichever replica: 10 counted, 8 fit, 9 do not.
    const eight = await b.gql(NODES, { ids: IDS.slice(0, 8) });
    expect(eight.body.errors).toBeUndefined();
    expect(eight.upstreamCalls).toEqual({ predicted: 8, made: 0 });
    const nine = await a.gql(NODES, { ids: IDS.slice(0, 9) });
    expect(nine.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(nine.upstreamCalls).toEqual({ predicted: 9, made: 0 });
    expect(a.sandbox.calls(undefined, KEY)).toBe(10);
  });

  it('with Redis down, a replica reserves from its own share: one of five runs', async () => {
    const link = a.gateway.shared.redis;
    if (!link) throw new Error('expected a Redis connection');
    await redis.stop();
    const deadline = Date.now() + 15_000;
    while (link.state !== 'down') {
      if (Date.now() > deadline) throw new Error('the outage was never noticed');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => a.gql(NODES, { ids: IDS }, { key: OTHER_KEY })),
    );
    expect(codes(answers).sort()).toEqual([
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'RATE_LIMITED',
      'ok',
    ]);
    expect(answers.map((answer) => answer.upstreamCalls?.made).sort()).toEqual([0, 0, 0, 0, 10]);
    expect(a.sandbox.calls(undefined, OTHER_KEY)).toBe(10);
  });
});
