// The per-process implementations of the shared state: what one replica uses alone, and what every
// replica falls back to while Redis is down. A fake clock drives the rolling window.
import { describe, expect, it } from 'vitest';
import {
  type BudgetDecision,
  ceilingsOf,
  type Hold,
  MemoryCacheStore,
  MemoryLeaseStore,
  MemoryPauseStore,
  MemoryRateBudget,
  MemorySnapshotStore,
  nextHold,
  retryAfterFromMs,
} from '../../src/shared-state';

const clock = (start = 1_000_000) => {
  const state = { now: start };
  return { now: () => state.now, advance: (ms: number) => (state.now += ms) };
};

const granted = (d: BudgetDecision) => d.granted;

describe('in-process upstream budget', () => {
  it('is a rolling window: calls free one by one as they age out, never a fixed minute', async () => {
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 4,
      pollBudgetPerMin: 0,
      windowMs: 1_000,
      now: time.now,
    });
    const grants: number[] = [];
    const take = async () => {
      const d = await budget.take('d1', 'mutation');
      if (d.granted) grants.push(d.at);
      return d;
    };
    expect(await take()).toEqual({
      granted: true,
      remaining: 3,
      at: 1_000_000,
      standing: {
        remaining: 3,
        shares: {
          reads: { spent: 0, remaining: 3 },
          writes: { spent: 1, remaining: 3 },
          live: { spent: 0, remaining: 0 },
        },
      },
    });
    await take();
    time.advance(500);
    await take();
    expect(await take()).toMatchObject({ granted: true, remaining: 0 });
    time.advance(100);
    // The oldest call leaves the window at 1_001_000: 400 ms from now, exactly.
    expect(await take()).toMatchObject({ granted: false, retryInMs: 400 });
    time.advance(399);
    expect(await take()).toMatchObject({ granted: false, retryInMs: 1 });
    time.advance(1);
    expect(await take()).toMatchObject({ granted: true, remaining: 1 });
    expect(await take()).toMatchObject({ granted: true, remaining: 0 });
    expect(await take()).toMatchObject({ granted: false, retryInMs: 500 });
    // A burst over two half-windows: no window of 1000 ms ever holds more than 4.
    for (let step = 0; step < 40; step += 1) {
      time.advance(50);
      for (let i = 0; i < 3; i += 1) await take();
    }
    for (const at of grants)
      expect(grants.filter((t) => t > at - 1_000 && t <= at).length).toBeLessThanOrEqual(4);
    expect(grants.length).toBeGreaterThanOrEqual(4 * 3);
  });

  it('claims in order: mutations, then client reads, then the poller within its own share', async () => {
    expect(ceilingsOf(20, 8)).toEqual({ mutation: 20, read: 18, poll: 18, pollOwn: 8 });
    expect(ceilingsOf(20, 100).pollOwn).toBe(10);
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 20,
      pollBudgetPerMin: 8,
      windowMs: 60_000,
      now: time.now,
    });
    const take = async (kind: 'mutation' | 'read' | 'poll', n: number) => {
      const out: BudgetDecision[] = [];
      for (let i = 0; i < n; i += 1) {
        out.push(await budget.take('d', kind));
        time.advance(10);
      }
      return out;
    };
    const polls = await take('poll', 9);
    expect(polls.filter(granted)).toHaveLength(8);
    expect(polls[7]).toMatchObject({ granted: true, remaining: 0 });
    // The ninth poll waits for the first poll to age out: 60 s after it, 80 ms later now.
    expect(polls[8]).toMatchObject({ granted: false, retryInMs: 60_000 - 80 });
    const reads = await take('read', 11);
    expect(reads.filter(granted)).toHaveLength(10);
    expect(reads[10]?.granted).toBe(false);
    const mutations = await take('mutation', 3);
    expect(mutations.map(granted)).toEqual([true, true, false]);
    expect(mutations[1]).toMatchObject({ remaining: 0 });
  });

  it('stands at the limit less the calls made; each share says what it spent and may still claim', async () => {
    const budget = new MemoryRateBudget({ limitPerMin: 20, pollBudgetPerMin: 8, now: clock().now });
    const standing = async (kind: 'mutation' | 'read' | 'poll', hold?: Hold) => {
      const d = await budget.take('d', kind, hold);
      return d.standing;
    };
    const reserved = await budget.reserve('d', { calls: 3, writes: 0 });
    const reservation = reserved.granted ? reserved.reservation : undefined;
    // Its own two unused holds count nowhere (they go when it ends); holds are never calls.
    expect(await standing('read', nextHold(reservation))).toEqual({
      remaining: 19,
      shares: {
        reads: { spent: 1, remaining: 17 },
        writes: { spent: 0, remaining: 19 },
        live: { spent: 0, remaining: 8 },
      },
    });
    // Another operation's view: those two holds take room from every share, not from the remaining.
    expect(await standing('mutation')).toEqual({
      remaining: 18,
      shares: {
        reads: { spent: 1, remaining: 14 },
        writes: { spent: 1, remaining: 16 },
        live: { spent: 0, remaining: 8 },
      },
    });
    expect(await standing('poll')).toEqual({
      remaining: 17,
      shares: {
        reads: { spent: 1, remaining: 13 },
        writes: { spent: 1, remaining: 15 },
        live: { spent: 1, remaining: 7 },
      },
    });
    if (reservation) await budget.release(reservation);
    expect((await standing('read')).shares.reads).toEqual({ spent: 2, remaining: 14 });
  });

  it('reads never take the slots kept for mutations; the poller never takes more than its share', async () => {
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 10,
      pollBudgetPerMin: 3,
      windowMs: 60_000,
      now: time.now,
    });
    const reads = [];
    for (let i = 0; i < 12; i += 1) reads.push(await budget.take('d', 'read'));
    expect(reads.filter(granted)).toHaveLength(9);
    expect(await budget.take('d', 'poll')).toMatchObject({ granted: false });
    expect(await budget.take('d', 'mutation')).toMatchObject({ granted: true, remaining: 0 });
  });

  it('turns a wait into retryAfter seconds, 1 to 60', () => {
    expect([1, 999, 1_000, 1_001, 59_999, 120_000].map(retryAfterFromMs)).toEqual([1, 1, 1, 2, 60, 60]);
  });

  it('keeps memory bounded: windows of idle credentials go, and at most maxDigests are kept', async () => {
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 5,
      pollBudgetPerMin: 0,
      windowMs: 1_000,
      maxDigests: 3,
      now: time.now,
    });
    for (let i = 0; i < 10; i += 1) await budget.take(`d${i}`, 'read');
    expect(budget.size).toBe(3);
    const drained = budget.drain();
    expect([...drained.keys()]).toEqual(['d9', 'd8', 'd7']);
    expect(budget.size).toBe(0);
  });

  it('hands over its calls still in the window when Redis takes over again', async () => {
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 5,
      pollBudgetPerMin: 2,
      windowMs: 1_000,
      now: time.now,
    });
    await budget.take('a', 'read');
    time.advance(600);
    await budget.take('a', 'poll');
    await budget.take('b', 'mutation');
    time.advance(500);
    expect(budget.drain()).toEqual(
      new Map([
        ['a', { calls: [1_000_600], polls: [1_000_600], reads: [], writes: [] }],
        ['b', { calls: [1_000_600], polls: [], reads: [], writes: [1_000_600] }],
      ]),
    );
    expect(budget.drain().size).toBe(0);
  });
});

describe('in-process pause after a 429', () => {
  it('keeps the later pause, forgets it once passed, caps it at 60 s', async () => {
    const time = clock();
    const pauses = new MemoryPauseStore({}, time.now);
    await pauses.pause('d', time.now() + 5_000);
    await pauses.pause('d', time.now() + 2_000);
    expect(await pauses.pausedUntil('d')).toBe(time.now() + 5_000);
    expect(await pauses.pausedUntil('other')).toBeUndefined();
    time.advance(5_000);
    expect(await pauses.pausedUntil('d')).toBeUndefined();
    await pauses.pause('d', time.now() + 3_600_000);
    expect(await pauses.pausedUntil('d')).toBe(time.now() + 60_000);
  });
});

describe('in-process read cache', () => {
  it('answers per credential and path; a write forgets only that credential, and a read from before it is not stored', async () => {
    const cache = new MemoryCacheStore({ ttlMs: 60_000, maxEntries: 100 });
    const a = await cache.lookup('A', '/tunnels');
    expect(a).toEqual({ hit: false, generation: 0 });
    if (a.hit) throw new Error('unreachable');
    await cache.store('A', a.generation, [
      ['/tunnels', { tunnels: [1] }],
      ['/tunnels/t1', { id: 't1' }],
    ]);
    await cache.store('B', 0, [['/tunnels', { tunnels: [2] }]]);
    expect(await cache.lookup('A', '/tunnels/t1')).toEqual({ hit: true, value: { id: 't1' } });
    const before = await cache.lookup('A', '/other');
    await cache.forget('A');
    expect(await cache.lookup('A', '/tunnels')).toMatchObject({ hit: false });
    expect(await cache.lookup('B', '/tunnels')).toEqual({ hit: true, value: { tunnels: [2] } });
    if (before.hit) throw new Error('unreachable');
    await cache.store('A', before.generation, [['/other', 'stale']]);
    expect(await cache.lookup('A', '/other')).toMatchObject({ hit: false });
  });

  it('stays bounded, and a credential whose generation was evicted never sees answers from before its write', async () => {
    const cache = new MemoryCacheStore({ ttlMs: 60_000, maxEntries: 2 });
    await cache.store('A', 0, [['/p', 'old']]);
    await cache.forget('A');
    // Three more writers push A's generation out of the bounded map.
    for (const d of ['B', 'C', 'D']) await cache.forget(d);
    expect(await cache.lookup('A', '/p')).toMatchObject({ hit: false });
    const e = await cache.lookup('E', '/');
    if (e.hit) throw new Error('unreachable');
    for (let i = 0; i < 10; i += 1) await cache.store('E', e.generation, [[`/${i}`, i]]);
    expect(cache.size).toBe(2);
    expect(await cache.lookup('E', '/9')).toEqual({ hit: true, value: 9 });
  });
});

describe('in-process lease', () => {
  it('has one holder until it expires or is released', async () => {
    const leases = new MemoryLeaseStore();
    expect(await leases.acquire('poll:d', 'r1', 60_000)).toBe(true);
    expect(await leases.acquire('poll:d', 'r2', 60_000)).toBe(false);
    expect(await leases.acquire('poll:d', 'r1', 60_000)).toBe(true);
    expect(await leases.renew('poll:d', 'r2', 60_000)).toBe('lost');
    expect(await leases.release('poll:d', 'r2')).toBe(false);
    expect(await leases.release('poll:d', 'r1')).toBe(true);
    expect(await leases.acquire('poll:d', 'r2', 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await leases.acquire('poll:d', 'r1', 60_000)).toBe(true);
    expect(await leases.renew('poll:d', 'r2', 60_000)).toBe('lost');
    expect(await leases.renew('poll:d', 'r1', 60_000)).toBe('renewed');
  });
});

describe('in-process snapshots', () => {
  it('stores a JSON snapshot per credential until its TTL', async () => {
    const snapshots = new MemorySnapshotStore();
    await snapshots.set('d', { ids: ['tn_1'] }, 60_000);
    await snapshots.set('e', [], 1);
    expect(await snapshots.get('d')).toEqual({ ids: ['tn_1'] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await snapshots.get('e')).toBeUndefined();
    expect(await snapshots.get('x')).toBeUndefined();
  });
});
