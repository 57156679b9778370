// The poller's one budget window on a real redis-server: pollWait reads the keys take() claims in
// (one read-only script, Redis's clock), so take('poll') grants what it said; through the fallback
// it answers from this replica's share while Redis is down, and counts the outage's polls after.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSharedState, type RateBudget } from '../../src/shared-state';
import { RedisRateBudget } from '../../src/shared-state/budget/redis-rate-budget';
import { keyNames } from '../../src/shared-state/redis/keys';
import { RedisServer, redisTestsRun } from '../support/redis-server';

const DIGEST = createHash('sha256')
  .update('ngrok_fake_api_key_pollwait_5e1d')
  .digest('base64url')
  .slice(0, 22);
const keys = keyNames('ngw:');
const until = async (condition: () => Promise<boolean> | boolean, what: string) => {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** Claims `n` of `kind` in a row and says which were granted. */
const takeMany = async (budget: RateBudget, kind: 'read' | 'poll', n: number) => {
  const granted: boolean[] = [];
  for (let i = 0; i < n; i += 1) granted.push((await budget.take(DIGEST, kind)).granted);
  return granted;
};

describe.runIf(redisTestsRun)('pollWait on Redis', () => {
  let server: RedisServer;
  let admin: Redis;

  beforeAll(async () => {
    server = await RedisServer.start();
    admin = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    admin.on('error', () => undefined);
  });
  afterEach(async () => {
    await admin.flushall();
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.stop();
  });

  it("says when the poller's share has room, claims nothing, and take('poll') then grants", async () => {
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      const budget = new RedisRateBudget(client, keys, {
        limitPerMin: 20,
        pollBudgetPerMin: 3,
        windowMs: 4_000,
      });
      expect(await budget.pollWait(DIGEST, 3)).toBe(0);
      // Capped at the share: uncapped, 100 calls could never fit and it would answer a whole window.
      expect(await budget.pollWait(DIGEST, 100)).toBe(0);
      expect(await admin.exists(keys.budget(DIGEST), keys.pollBudget(DIGEST))).toBe(0);
      expect(await takeMany(budget, 'poll', 1)).toEqual([true]);
      expect(await budget.pollWait(DIGEST, 2)).toBe(0);
      const wait = await budget.pollWait(DIGEST, 3);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(4_000);
      expect(await budget.pollWait(DIGEST, 100)).toBeLessThanOrEqual(wait);
      expect(await takeMany(budget, 'poll', 3)).toEqual([true, true, false]);
      expect(await admin.zcard(keys.pollBudget(DIGEST))).toBe(3);

      // What it says matches the refusal: the same oldest poll, read a moment apart.
      const before = Date.now();
      const said = await budget.pollWait(DIGEST, 1);
      const refused = await budget.take(DIGEST, 'poll');
      const between = Date.now() - before;
      if (refused.granted) throw new Error('expected a refusal');
      expect(said).toBeGreaterThanOrEqual(refused.retryInMs);
      expect(said - refused.retryInMs).toBeLessThanOrEqual(between + 1);
      // A few ms more: timers may fire a millisecond early against the wall clock.
      await new Promise((resolve) => setTimeout(resolve, said + 5));
      expect(await budget.pollWait(DIGEST, 1)).toBe(0);
      expect(await takeMany(budget, 'poll', 1)).toEqual([true]);
    } finally {
      client.disconnect();
    }
  });

  it('waits for the ceiling polls share with client reads, skipping calls that left the window', async () => {
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      const budget = new RedisRateBudget(client, keys, { limitPerMin: 10, pollBudgetPerMin: 5 });
      expect(await takeMany(budget, 'read', 7)).toEqual(Array(7).fill(true));
      // Two calls from long ago, still in the set (take trims, pollWait only reads): not counted.
      await admin.zadd(keys.budget(DIGEST), 1, 'old-1', 2, 'old-2');
      // Polls find at most 9 calls in the window: two more fit, though the share has five.
      expect(await budget.pollWait(DIGEST, 2)).toBe(0);
      const wait = await budget.pollWait(DIGEST, 3);
      expect(wait).toBeGreaterThan(30_000);
      expect(wait).toBeLessThanOrEqual(60_000);
      expect(await takeMany(budget, 'poll', 3)).toEqual([true, true, false]);
      expect(await admin.zcard(keys.budget(DIGEST))).toBe(9);
    } finally {
      client.disconnect();
    }
  });

  it("through the fallback: Redis's window, this replica's share while Redis is down, both after", async () => {
    const shared = createSharedState({
      redis: { url: server.url, keyPrefix: 'ngw:', timeoutMs: 1_000, fallbackReplicas: 2 },
      cache: { ttlMs: 60_000, maxEntries: 100 },
      rateLimitPerMin: 20,
      livePollBudgetPerMin: 6,
    });
    const redis = shared.redis;
    if (!redis) throw new Error('expected a Redis connection');
    try {
      await redis.whenUp();
      // On Redis the poller's share is 6.
      expect(await takeMany(shared.budget, 'poll', 2)).toEqual([true, true]);
      expect(await shared.budget.pollWait(DIGEST, 4)).toBe(0);
      expect(await shared.budget.pollWait(DIGEST, 5)).toBeGreaterThan(0);
      expect(await admin.zcard(keys.pollBudget(DIGEST))).toBe(2);

      await server.stop();
      await until(() => redis.state === 'down', 'the outage to be noticed');
      // This replica's share: 6 / REDIS_FALLBACK_REPLICAS, counted here from nothing.
      expect(await shared.budget.pollWait(DIGEST, 3)).toBe(0);
      expect(await shared.budget.pollWait(DIGEST, 100)).toBe(0);
      expect(await takeMany(shared.budget, 'poll', 2)).toEqual([true, true]);
      expect(await shared.budget.pollWait(DIGEST, 1)).toBe(0);
      expect(await shared.budget.pollWait(DIGEST, 2)).toBeGreaterThan(0);
      expect(await takeMany(shared.budget, 'poll', 2)).toEqual([true, false]);

      await server.restart();
      await redis.whenUp();
      // Redis came back empty and holds the outage's three polls: three more of six fit.
      await until(async () => (await admin.zcard(keys.pollBudget(DIGEST))) === 3, 'the polls handed over');
      expect(await shared.budget.pollWait(DIGEST, 3)).toBe(0);
      expect(await shared.budget.pollWait(DIGEST, 4)).toBeGreaterThan(0);
      expect(await takeMany(shared.budget, 'poll', 4)).toEqual([true, true, true, false]);
    } finally {
      await shared.close();
    }
  });
});
