// Each kind of shared state on a real redis-server: several ioredis connections stand for several
// replicas. Nothing here waits a minute: the budget's window is shortened for the rolling test.
import { createHash } from 'node:crypto';
import { createPubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetDecision, ClaimKind } from '../../src/shared-state';
import { RedisRateBudget } from '../../src/shared-state/budget/redis-rate-budget';
import { RedisCacheStore } from '../../src/shared-state/cache/redis-cache-store';
import { SharedEventTarget } from '../../src/shared-state/events/shared-events';
import { RedisLeaseStore } from '../../src/shared-state/lease/redis-lease-store';
import { RedisPauseStore } from '../../src/shared-state/pause/redis-pause-store';
import { RedisConnection } from '../../src/shared-state/redis/connection';
import { keyNames } from '../../src/shared-state/redis/keys';
import { RedisSnapshotStore } from '../../src/shared-state/snapshots/redis-snapshot-store';
import { RedisServer, redisTestsRun } from '../support/redis-server';

const FAKE_KEY = 'ngrok_fake_api_key_2f1b7c9e4d';
const digestOf = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);
const DIGEST = digestOf(FAKE_KEY);
const keys = keyNames('ngw:');
const until = async (condition: () => Promise<boolean> | boolean, what: string) => {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe.runIf(redisTestsRun)('shared state on Redis', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };
  let admin: Redis;

  beforeAll(async () => {
    server = await RedisServer.start();
    admin = connect();
  });
  afterEach(async () => {
    await admin.flushall();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server?.stop();
  });

  describe('upstream budget', () => {
    it('is a rolling window: over two and a half windows no window ever holds more than the limit', async () => {
      const budget = new RedisRateBudget(connect(), keys, {
        limitPerMin: 6,
        pollBudgetPerMin: 0,
        windowMs: 1_000,
      });
      const grants: number[] = [];
      let refusedWait = 0;
      const started = Date.now();
      while (Date.now() - started < 2_500) {
        const d = await budget.take(DIGEST, 'mutation');
        if (d.granted) grants.push(d.at);
        else refusedWait = Math.max(refusedWait, d.retryInMs);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const at of grants) {
        expect(grants.filter((t) => t > at - 1_000 && t <= at).length).toBeLessThanOrEqual(6);
      }
      // The window rolled: more than one window's worth in total, and a refusal says when to come back.
      expect(grants.length).toBeGreaterThan(6 * 2);
      expect(refusedWait).toBeGreaterThan(0);
      expect(refusedWait).toBeLessThanOrEqual(1_000);
    });

    it('a refusal says exactly when a slot frees: asking again then is granted', async () => {
      const budget = new RedisRateBudget(connect(), keys, {
        limitPerMin: 2,
        pollBudgetPerMin: 0,
        windowMs: 800,
      });
      await budget.take(DIGEST, 'mutation');
      await budget.take(DIGEST, 'mutation');
      const refused = await budget.take(DIGEST, 'mutation');
      if (refused.granted) throw new Error('expected a refusal');
      expect(refused.retryInMs).toBeGreaterThan(0);
      expect(refused.retryInMs).toBeLessThanOrEqual(800);
      // A few ms more: timers may fire a millisecond early against the wall clock.
      await new Promise((resolve) => setTimeout(resolve, refused.retryInMs + 5));
      expect(await budget.take(DIGEST, 'mutation')).toMatchObject({ granted: true });
    });

    it('replicas on separate connections bursting together never exceed the limit', async () => {
      const replicas = [0, 1, 2, 3].map(
        () => new RedisRateBudget(connect(), keys, { limitPerMin: 25, pollBudgetPerMin: 0 }),
      );
      const decisions = await Promise.all(
        replicas.flatMap((budget) => Array.from({ length: 25 }, () => budget.take(DIGEST, 'mutation'))),
      );
      expect(decisions.filter((d) => d.granted)).toHaveLength(25);
      for (const d of decisions) if (!d.granted) expect(d.retryInMs).toBeLessThanOrEqual(60_000);
      expect(await admin.zcard(keys.budget(DIGEST))).toBe(25);
      // Another credential has its own budget.
      expect(await replicas[0]?.take(digestOf('another key'), 'mutation')).toMatchObject({ granted: true });
    });

    it('claims in order: mutations, then client reads, then the poller within its own share', async () => {
      const budget = new RedisRateBudget(connect(), keys, { limitPerMin: 20, pollBudgetPerMin: 8 });
      const take = async (kind: ClaimKind, n: number) => {
        const out: BudgetDecision[] = [];
        for (let i = 0; i < n; i += 1) out.push(await budget.take(DIGEST, kind));
        return out;
      };
      const polls = await take('poll', 9);
      expect(polls.map((d) => d.granted)).toEqual([...Array(8).fill(true), false]);
      expect(polls[7]).toMatchObject({ remaining: 0 });
      const reads = await take('read', 11);
      expect(reads.filter((d) => d.granted)).toHaveLength(10);
      expect(reads[9]).toMatchObject({ granted: true, remaining: 0 });
      expect(await take('poll', 1)).toMatchObject([{ granted: false }]);
      expect((await take('mutation', 3)).map((d) => d.granted)).toEqual([true, true, false]);
      expect(await admin.zcard(keys.budget(DIGEST))).toBe(20);
      expect(await admin.zcard(keys.pollBudget(DIGEST))).toBe(8);
      expect(await admin.pttl(keys.budget(DIGEST))).toBeGreaterThan(0);
    });
  });

  it('pause after a 429: the later pause wins and the key expires with it', async () => {
    const a = new RedisPauseStore(connect(), keys);
    const b = new RedisPauseStore(connect(), keys);
    const later = Date.now() + 5_000;
    await a.pause(DIGEST, later);
    await b.pause(DIGEST, Date.now() + 2_000);
    expect(await b.pausedUntil(DIGEST)).toBe(later);
    expect(await a.pausedUntil(digestOf('other'))).toBeUndefined();
    const ttl = await admin.pttl(keys.pause(DIGEST));
    expect(ttl).toBeGreaterThan(2_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });

  it('read cache: shared across replicas, a write forgets that credential only, a read from before it is not stored', async () => {
    const a = new RedisCacheStore(connect(), keys, { ttlMs: 60_000 });
    const b = new RedisCacheStore(connect(), keys, { ttlMs: 60_000 });
    const other = digestOf('other key');
    const miss = await a.lookup(DIGEST, '/tunnels?limit=20');
    expect(miss).toEqual({ hit: false, generation: 0 });
    await a.store(DIGEST, 0, [
      ['/tunnels?limit=20', { tunnels: [{ id: 'tn_1' }] }],
      ['/tunnels/tn_1', { id: 'tn_1' }],
    ]);
    await a.store(other, 0, [['/tunnels?limit=20', { tunnels: [] }]]);
    expect(await b.lookup(DIGEST, '/tunnels/tn_1')).toEqual({ hit: true, value: { id: 'tn_1' } });
    await b.forget(DIGEST);
    expect(await a.lookup(DIGEST, '/tunnels/tn_1')).toEqual({ hit: false, generation: 1 });
    expect(await a.lookup(other, '/tunnels?limit=20')).toEqual({ hit: true, value: { tunnels: [] } });
    await a.store(DIGEST, 0, [
      ['/tunnels/tn_1', { id: 'stale' }],
      ['/tunnels/tn_9', { id: 'stale' }],
    ]);
    expect(await b.lookup(DIGEST, '/tunnels/tn_1')).toMatchObject({ hit: false });
    // Not stored at all, so it cannot come back when counting restarts after the generation expires.
    expect(await admin.exists(`${keys.cacheEntries(DIGEST)}0:/tunnels/tn_9`)).toBe(0);
    const ttl = await admin.pttl(`${keys.cacheEntries(other)}0:/tunnels?limit=20`);
    expect(ttl).toBeGreaterThan(0);
    expect(await admin.pttl(keys.cacheGeneration(DIGEST))).toBeGreaterThan(0);
  });

  it('lease: one holder; another takes it over once it expires; renew and release compare the holder', async () => {
    const r1 = new RedisLeaseStore(connect(), keys);
    const r2 = new RedisLeaseStore(connect(), keys);
    const name = `live:${DIGEST}`;
    expect(await r1.acquire(name, 'replica-1', 300)).toBe(true);
    expect(await r2.acquire(name, 'replica-2', 300)).toBe(false);
    expect(await r1.renew(name, 'replica-1', 300)).toBe('renewed');
    expect(await r2.release(name, 'replica-2')).toBe(false);
    // replica-1 stops renewing (it died): replica-2 gets the lease after the TTL.
    await until(() => r2.acquire(name, 'replica-2', 60_000), 'the lease to expire');
    expect(await r1.renew(name, 'replica-1', 300)).toBe('lost');
    expect(await r1.release(name, 'replica-1')).toBe(false);
    expect(await admin.get(keys.lease(name))).toBe('replica-2');
    expect(await r2.release(name, 'replica-2')).toBe(true);
    expect(await admin.exists(keys.lease(name))).toBe(0);
  });

  it('snapshots: one per credential, shared, with a TTL', async () => {
    const a = new RedisSnapshotStore(connect(), keys);
    const b = new RedisSnapshotStore(connect(), keys);
    await a.set(DIGEST, { tunnels: ['tn_1', 'tn_2'] }, 30_000);
    expect(await b.get(DIGEST)).toEqual({ tunnels: ['tn_1', 'tn_2'] });
    expect(await b.get(digestOf('other'))).toBeUndefined();
    expect(await admin.pttl(keys.snapshot(DIGEST))).toBeGreaterThan(0);
  });

  it('live events fan out through Redis to subscribers on every replica', async () => {
    const replicas = [
      new RedisConnection({ url: server.url, timeoutMs: 1_000 }),
      new RedisConnection({ url: server.url, timeoutMs: 1_000 }),
    ];
    try {
      await Promise.all(replicas.map((r) => r.whenUp()));
      const pubSubs = replicas.map((r) =>
        createPubSub<{ tunnelEvents: [string, { kind: string; id: string }] }>({
          eventTarget: new SharedEventTarget({ link: r, client: r.client, subscriber: r.subscriber, keys }),
        }),
      );
      const streams = pubSubs.map((p) => p.subscribe('tunnelEvents', DIGEST)[Symbol.asyncIterator]());
      const firsts = streams.map((s) => s.next());
      const channel = keys.channel(`tunnelEvents:${DIGEST}`);
      await until(async () => {
        const reply = (await admin.pubsub('NUMSUB', channel)) as [string, number];
        return reply[1] === 2;
      }, 'both replicas to subscribe');
      pubSubs[0]?.publish('tunnelEvents', DIGEST, { kind: 'ONLINE', id: 'tn_1' });
      for (const first of await Promise.all(firsts)) {
        expect(first).toEqual({ done: false, value: { kind: 'ONLINE', id: 'tn_1' } });
      }
      await Promise.all(streams.map((s) => s.return?.()));
      await until(async () => {
        const reply = (await admin.pubsub('NUMSUB', channel)) as [string, number];
        return reply[1] === 0;
      }, 'the subscriptions to end with their subscribers');
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });

  it('keys carry the prefix and a digest; no key or value holds the credential', async () => {
    const prefixed = keyNames('tenant-a:');
    const client = connect();
    await new RedisRateBudget(client, prefixed, { limitPerMin: 5, pollBudgetPerMin: 2 }).take(DIGEST, 'poll');
    await new RedisPauseStore(client, prefixed).pause(DIGEST, Date.now() + 10_000);
    const cache = new RedisCacheStore(client, prefixed, { ttlMs: 10_000 });
    await cache.store(DIGEST, 0, [
      ['/tunnels', { tunnels: [{ id: 'tn_1', public_url: 'https://x.ngrok.app' }] }],
    ]);
    await cache.forget(DIGEST);
    await new RedisLeaseStore(client, prefixed).acquire(`live:${DIGEST}`, 'replica-1', 10_000);
    await new RedisSnapshotStore(client, prefixed).set(DIGEST, { tunnels: ['tn_1'] }, 10_000);
    const all = await admin.keys('*');
    expect(all.length).toBe(7);
    const dump: string[] = [];
    for (const key of all) {
      expect(key.startsWith('tenant-a:')).toBe(true);
      expect(key).toContain(DIGEST);
      const type = await admin.type(key);
      if (type === 'string') dump.push((await admin.get(key)) ?? '');
      else if (type === 'zset') dump.push(...(await admin.zrange(key, 0, -1, 'WITHSCORES')));
      else throw new Error(`unexpected key type ${type}`);
    }
    const text = [...all, ...dump].join('\n');
    expect(text).not.toContain(FAKE_KEY);
    expect(text).not.toContain(FAKE_KEY.slice(0, 12));
  });
});
