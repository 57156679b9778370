// Redis goes away and comes back while the gateway runs: every kind of shared state keeps
// answering from this process (no exception reaches a caller), the outage is logged once, the
// budget keeps to this replica's share, and Redis is used again after it returns, with what the
// outage changed handed over to it.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { createPubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log';
import { createSharedState, registerRedisMetrics, type SharedState } from '../../src/shared-state';
import { keyNames } from '../../src/shared-state/redis/keys';
import { RedisServer, redisTestsRun } from '../support/redis-server';

const FAKE_KEY = 'ngrok_fake_api_key_outage_7a3c';
const DIGEST = createHash('sha256').update(FAKE_KEY).digest('base64url').slice(0, 22);
const keys = keyNames('ngw:');
const until = async (condition: () => Promise<boolean> | boolean, what: string) => {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe.runIf(redisTestsRun)('shared state when Redis fails', () => {
  let server: RedisServer;
  let admin: Redis;
  let shared: SharedState;
  const lines: { level: number; msg: string; reason?: string }[] = [];

  beforeAll(async () => {
    server = await RedisServer.start();
    admin = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    admin.on('error', () => undefined);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    shared = createSharedState(
      {
        redis: { url: server.url, keyPrefix: 'ngw:', timeoutMs: 1_000, fallbackReplicas: 2 },
        rateLimitPerMin: 10,
        livePollBudgetPerMin: 4,
        cache: { ttlMs: 60_000, maxEntries: 100 },
      },
      createLogger({ log: { level: 'info', format: 'json' }, server: { nodeEnv: 'production' } }, stream),
    );
  });
  afterAll(async () => {
    await shared?.close();
    admin?.disconnect();
    await server?.stop();
  });

  const outageLines = () => lines.filter((l) => l.msg.startsWith('Redis unreachable'));

  it('falls back without a failed call, logs the outage once, and returns to Redis', async () => {
    const redis = shared.redis;
    if (!redis) throw new Error('expected a Redis connection');
    const registry = new Registry();
    registerRedisMetrics(registry, redis);
    const gauge = async () => (await registry.getSingleMetricAsString('gateway_redis_up')).split('\n').at(-1);

    await redis.whenUp();
    expect(await gauge()).toBe('gateway_redis_up 1');
    expect(await shared.budget.take(DIGEST, 'mutation')).toMatchObject({ granted: true, remaining: 9 });
    expect(await admin.zcard(keys.budget(DIGEST))).toBe(1);
    await shared.cache.store(DIGEST, 0, [['/tunnels', { tunnels: ['before'] }]]);

    // Calls keep coming while Redis dies: none may fail.
    let running = true;
    const failures: unknown[] = [];
    const traffic = (async () => {
      while (running) {
        await Promise.all([
          shared.pauses.pausedUntil(DIGEST),
          shared.cache.lookup(DIGEST, '/tunnels'),
          shared.snapshots.get(DIGEST),
          shared.leases.renew(`live:${DIGEST}`, 'nobody', 1_000),
        ]).catch((error: unknown) => failures.push(error));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await server.stop();
    await until(() => redis.state === 'down', 'the outage to be noticed');
    expect(redis.describe().state).toBe('down');
    expect(await gauge()).toBe('gateway_redis_up 0');

    // The budget is this replica's share: 10 / REDIS_FALLBACK_REPLICAS.
    const decisions = [];
    for (let i = 0; i < 6; i += 1) decisions.push(await shared.budget.take(DIGEST, 'mutation'));
    expect(decisions.map((d) => d.granted)).toEqual([true, true, true, true, true, false]);
    // Every other kind answers from this process.
    await shared.pauses.pause(DIGEST, Date.now() + 30_000);
    expect(await shared.pauses.pausedUntil(DIGEST)).toBeGreaterThan(Date.now());
    await shared.cache.forget(DIGEST);
    const miss = await shared.cache.lookup(DIGEST, '/tunnels');
    if (miss.hit) throw new Error('expected a miss');
    await shared.cache.store(DIGEST, miss.generation, [['/tunnels', { tunnels: ['during'] }]]);
    expect(await shared.cache.lookup(DIGEST, '/tunnels')).toEqual({
      hit: true,
      value: { tunnels: ['during'] },
    });
    expect(await shared.leases.acquire(`live:${DIGEST}`, 'replica-1', 60_000)).toBe(true);
    await shared.snapshots.set(DIGEST, { tunnels: ['tn_1'] }, 60_000);
    expect(await shared.snapshots.get(DIGEST)).toEqual({ tunnels: ['tn_1'] });
    const pubSub = createPubSub<{ tunnelEvents: [string, { id: string }] }>({ eventTarget: shared.events });
    const stream = pubSub.subscribe('tunnelEvents', DIGEST)[Symbol.asyncIterator]();
    const first = stream.next();
    pubSub.publish('tunnelEvents', DIGEST, { id: 'tn_1' });
    expect(await first).toEqual({ done: false, value: { id: 'tn_1' } });

    // Several reconnect attempts fail; the outage is still logged once.
    let attempts = 0;
    const count = () => {
      attempts += 1;
    };
    redis.client.on('reconnecting', count);
    await until(() => attempts >= 3, 'three reconnect attempts');
    redis.client.off('reconnecting', count);
    expect(outageLines()).toHaveLength(1);
    // The reason is the first failure seen (a closed connection, EPIPE, ECONNRESET...): timing decides.
    expect(outageLines()[0]).toMatchObject({ level: 40, reason: expect.stringMatching(/^[\w ]{3,40}$/) });

    await server.restart();
    await redis.whenUp();
    running = false;
    await traffic;
    expect(failures).toEqual([]);
    expect(lines.filter((l) => l.msg.startsWith('Redis reachable again'))).toHaveLength(1);
    expect(outageLines()).toHaveLength(1);
    expect(await gauge()).toBe('gateway_redis_up 1');

    // Redis was restarted empty: it now holds the calls, the pause and the write made during the outage.
    await until(
      async () => (await admin.zcard(keys.budget(DIGEST))) === 5,
      'the outage calls to be handed over',
    );
    await until(async () => (await admin.exists(keys.pause(DIGEST))) === 1, 'the pause to be handed over');
    await until(
      async () => (await admin.get(keys.cacheGeneration(DIGEST))) === '1',
      'the write to be handed over',
    );
    // Back on Redis, with the full limit: 5 of 10 taken.
    const after = [];
    for (let i = 0; i < 6; i += 1) after.push(await shared.budget.take(DIGEST, 'mutation'));
    expect(after.map((d) => d.granted)).toEqual([true, true, true, true, true, false]);
    expect(await admin.zcard(keys.budget(DIGEST))).toBe(10);
    // The per-process answers are gone: the cache reads Redis again.
    expect(await shared.cache.lookup(DIGEST, '/tunnels')).toEqual({ hit: false, generation: 1 });
    expect(await shared.leases.acquire(`live:${DIGEST}`, 'replica-2', 60_000)).toBe(true);
    expect(await admin.get(keys.lease(`live:${DIGEST}`))).toBe('replica-2');
    // Events go through Redis again.
    const channel = keys.channel(`tunnelEvents:${DIGEST}`);
    await until(
      async () => ((await admin.pubsub('NUMSUB', channel)) as [string, number])[1] === 1,
      'the resubscription',
    );
    const second = stream.next();
    pubSub.publish('tunnelEvents', DIGEST, { id: 'tn_2' });
    expect(await second).toEqual({ done: false, value: { id: 'tn_2' } });
    await stream.return?.();

    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(FAKE_KEY);
    expect(logged).not.toContain(server.url);
  });
});
