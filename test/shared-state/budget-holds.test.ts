// A reservation's holds in the upstream budget, per process (a clock of the test's own) and in Redis
// (a real redis-server, two connections for two replicas, a short window): holds count as calls
// while held, a call takes one and is stamped when made, release drops only the unused ones, and
// holds nobody releases (a replica that died) leave with the window.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateBudget, nextHold, type RateBudget, type Reservation } from '../../src/shared-state';
import { RedisRateBudget } from '../../src/shared-state/budget/redis-rate-budget';
import { keyNames } from '../../src/shared-state/redis/keys';
import { RedisServer, redisTestsRun } from '../support/redis-server';

const DIGEST = createHash('sha256').update('ngrok_fake_api_key_holds_5e1d').digest('base64url').slice(0, 22);
const READS = (calls: number) => ({ calls, writes: 0 });
const keys = keyNames('ngw:');

/** The reservation of a granted decision (the test fails on a refusal). */
async function reserved(budget: RateBudget, calls: number, writes = 0): Promise<Reservation> {
  const decision = await budget.reserve(DIGEST, { calls, writes });
  if (!decision.granted) throw new Error(`refused ${calls} calls (${decision.retryInMs} ms)`);
  return decision.reservation;
}

/** Whether the budget would hold `calls` reads now; a granted probe is released at once. */
async function fits(budget: RateBudget, calls: number, writes = 0): Promise<boolean> {
  const decision = await budget.reserve(DIGEST, { calls, writes });
  if (decision.granted) await budget.release(decision.reservation);
  return decision.granted;
}

describe('holds in this process (UPSTREAM_RATE_LIMIT_PER_MIN=20: reads up to 18)', () => {
  let clock = 1_000_000;
  const budget = () => new MemoryRateBudget({ limitPerMin: 20, pollBudgetPerMin: 5, now: () => clock });

  it('count as calls while held; a call takes one; a call past them claims a slot of its own', async () => {
    const b = budget();
    const r = await reserved(b, 10);
    expect(r.held).toBe(10);
    const refused = await b.reserve(DIGEST, READS(9));
    // The holds were placed just now: they leave the window a whole window later.
    expect(refused).toEqual({ granted: false, retryInMs: 60_000 });
    expect(await fits(b, 8)).toBe(true);
    for (let i = 0; i < 10; i += 1) {
      const taken = await b.take(DIGEST, 'read', nextHold(r));
      expect(taken).toMatchObject({ granted: true, remaining: 8 });
    }
    expect(nextHold(r)).toBeUndefined();
    // Past its holds, under the read ceiling like any read.
    expect(await b.take(DIGEST, 'read', nextHold(r))).toMatchObject({ granted: true, remaining: 7 });
    await b.release(r);
    expect(await fits(b, 7)).toBe(true);
    expect(await fits(b, 8)).toBe(false);
  });

  it('release drops only the unused holds; a second release and an unknown one change nothing', async () => {
    const b = budget();
    const r = await reserved(b, 10);
    for (let i = 0; i < 3; i += 1) await b.take(DIGEST, 'read', nextHold(r));
    await b.release(r);
    await b.release(r);
    await b.release({ id: 'h:elsewhere:1', digest: DIGEST, held: 5, used: 0 });
    expect(await fits(b, 15)).toBe(true);
    expect(await fits(b, 16)).toBe(false);
  });

  it('a hold leaves with the window when nobody releases it; a call stays a window from when it was made', async () => {
    const b = budget();
    const r = await reserved(b, 10);
    clock += 30_000;
    await b.take(DIGEST, 'read', nextHold(r));
    expect(await fits(b, 9)).toBe(false);
    // The 9 holds (placed at 0) leave at 60 s; the call made at 30 s stays until 90 s.
    clock += 30_001;
    expect(await fits(b, 17)).toBe(true);
    expect(await fits(b, 18)).toBe(false);
    // Its holds gone with the window, the operation's next call claims a slot like any read.
    expect(await b.take(DIGEST, 'read', nextHold(r))).toMatchObject({ granted: true, remaining: 16 });
    clock += 30_000;
    expect(await fits(b, 17)).toBe(true);
    expect(await fits(b, 18)).toBe(false);
    await b.release(r);
  });

  it('keeps the last tenth for writes: a demand with a write may fill the window, reads only 18', async () => {
    const b = budget();
    const write = await reserved(b, 20, 1);
    expect(write.held).toBe(20);
    expect(await fits(b, 1, 1)).toBe(false);
    await b.release(write);
    const reads = await reserved(b, 18);
    // Reads full: a write of 2 fits the last tenth, a write with 3 calls does not.
    expect(await fits(b, 2, 2)).toBe(true);
    expect(await fits(b, 3, 1)).toBe(false);
    expect(await fits(b, 1)).toBe(false);
    await b.release(reads);
  });

  it('hands over to Redis the calls made while it was down, never the holds', async () => {
    const b = budget();
    const r = await reserved(b, 10);
    for (let i = 0; i < 4; i += 1) await b.take(DIGEST, 'read', nextHold(r));
    const drained = b.drain();
    expect(drained.get(DIGEST)?.calls).toHaveLength(4);
    // After the hand-over the operation's calls claim slots (here: an empty window).
    expect(await b.take(DIGEST, 'read', nextHold(r))).toMatchObject({ granted: true, remaining: 17 });
  });
});

describe.runIf(redisTestsRun)('holds in Redis, shared by replicas', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };
  let admin: Redis;
  const replica = (client: Redis = connect(), windowMs?: number) =>
    new RedisRateBudget(client, keys, { limitPerMin: 20, pollBudgetPerMin: 5, windowMs });

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

  it("one replica's holds count on the other; a call takes one in the same step; release drops the rest", async () => {
    const a = replica();
    const b = replica();
    const r = await reserved(a, 10);
    expect(await admin.zcard(keys.budget(DIGEST))).toBe(10);
    const refused = await b.reserve(DIGEST, READS(9));
    if (refused.granted) throw new Error('expected a refusal');
    expect(refused.retryInMs).toBeGreaterThan(55_000);
    expect(refused.retryInMs).toBeLessThanOrEqual(60_000);
    expect(await fits(b, 8)).toBe(true);
    // A call of the operation (on either replica) takes its hold: the count stays 10.
    expect(await b.take(DIGEST, 'read', nextHold(r))).toMatchObject({ granted: true, remaining: 8 });
    expect(await a.take(DIGEST, 'read', nextHold(r))).toMatchObject({ granted: true, remaining: 8 });
    expect(await admin.zcard(keys.budget(DIGEST))).toBe(10);
    const scores = await Promise.all([1, 2, 3].map((i) => admin.zscore(keys.budget(DIGEST), `${r.id}:${i}`)));
    expect(scores.map((score) => score === null)).toEqual([true, true, false]);
    await a.release(r);
    expect(await admin.zcard(keys.budget(DIGEST))).toBe(2);
    // A reservation whose calls took every hold leaves nothing to drop: its calls stay.
    const exact = await reserved(b, 2);
    await a.take(DIGEST, 'read', nextHold(exact));
    await b.take(DIGEST, 'read', nextHold(exact));
    await b.release(exact);
    expect(await admin.zcard(keys.budget(DIGEST))).toBe(4);
    expect(await fits(b, 14)).toBe(true);
    expect(await fits(b, 15)).toBe(false);
  });

  it("a dead replica's holds leave with the window; a call past its expired holds claims a slot", async () => {
    const dying = connect();
    const dead = replica(dying, 800);
    const r = await reserved(dead, 10);
    dying.disconnect();
    const alive = replica(connect(), 800);
    const refused = await alive.reserve(DIGEST, READS(9));
    if (refused.granted) throw new Error('expected a refusal');
    expect(refused.retryInMs).toBeLessThanOrEqual(800);
    const deadline = Date.now() + 15_000;
    while (!(await fits(alive, 18))) {
      if (Date.now() > deadline) throw new Error('the holds never left the window');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // Its hold gone, the operation's call is an ordinary read: under the ceiling, a member of its own.
    expect(await alive.take(DIGEST, 'read', nextHold(r))).toMatchObject({ granted: true, remaining: 17 });
    expect(await admin.zcard(keys.budget(DIGEST))).toBe(1);
  });
});
