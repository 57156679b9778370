// The poller's one budget window in this process: pollWait says when a walk of n calls fits, from
// the windows take() claims in, and take('poll') then grants exactly that. A fake clock drives the
// windows. With the limit off (UPSTREAM_RATE_LIMIT_PER_MIN=0) only the poller is still bounded.
import { describe, expect, it } from 'vitest';
import {
  createSharedState,
  MemoryRateBudget,
  pollShareOf,
  type RateBudget,
  UnlimitedRateBudget,
} from '../../src/shared-state';

const clock = (start = 1_000_000) => {
  const state = { now: start };
  return { now: () => state.now, advance: (ms: number) => (state.now += ms) };
};

/** Claims `n` of `kind` in a row (no time passes) and says which were granted. */
const takeMany = async (budget: RateBudget, kind: 'mutation' | 'read' | 'poll', n: number) => {
  const granted: boolean[] = [];
  for (let i = 0; i < n; i += 1) granted.push((await budget.take('d', kind)).granted);
  return granted;
};

describe('pollWait in this process', () => {
  it("waits for the poller's own share, and take('poll') grants exactly then", async () => {
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 20,
      pollBudgetPerMin: 8,
      windowMs: 60_000,
      now: time.now,
    });
    expect(await budget.pollWait('d', 8)).toBe(0);
    // Capped at the share: a walk of 100 calls waits for no more than 8.
    expect(await budget.pollWait('d', 100)).toBe(0);
    for (let i = 0; i < 6; i += 1) {
      expect(await budget.take('d', 'poll')).toMatchObject({ granted: true });
      time.advance(10);
    }
    // Polls at +0..+50 ms, now +60: two more fit; a third waits for the first poll to leave.
    expect(await budget.pollWait('d', 2)).toBe(0);
    expect(await budget.pollWait('d', 3)).toBe(60_000 - 60);
    expect(await budget.pollWait('d', 8)).toBe(60_000 - 60 + 50);
    expect(await budget.pollWait('d', 100)).toBe(60_000 - 60 + 50);
    // Another credential's window is its own; nothing above claimed a slot.
    expect(await budget.pollWait('other', 8)).toBe(0);

    time.advance(60_000 - 60 - 1);
    expect(await budget.pollWait('d', 3)).toBe(1);
    expect(await takeMany(budget, 'poll', 3)).toEqual([true, true, false]);
    time.advance(1);
    expect(await budget.pollWait('d', 1)).toBe(0);
    expect(await takeMany(budget, 'poll', 2)).toEqual([true, false]);
  });

  it('waits for the ceiling polls share with client reads when the reads fill the window', async () => {
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 20,
      pollBudgetPerMin: 8,
      windowMs: 60_000,
      now: time.now,
    });
    await takeMany(budget, 'poll', 2);
    time.advance(100);
    expect(await takeMany(budget, 'read', 14)).toEqual(Array(14).fill(true));
    // 16 of the 18 calls polls may find in the window: two more fit, though the share has six left.
    expect(await budget.pollWait('d', 2)).toBe(0);
    expect(await budget.pollWait('d', 3)).toBe(60_000 - 100);
    expect(await budget.pollWait('d', 4)).toBe(60_000 - 100);
    expect(await budget.pollWait('d', 5)).toBe(60_000);
    // A mutation takes one of the two: now only one poll fits.
    expect(await budget.take('d', 'mutation')).toMatchObject({ granted: true });
    expect(await budget.pollWait('d', 1)).toBe(0);
    expect(await budget.pollWait('d', 2)).toBe(60_000 - 100);
    // The two first polls leave: three fit under the ceiling (15 calls of 18); a fourth once the reads leave.
    time.advance(60_000 - 100);
    expect(await budget.pollWait('d', 3)).toBe(0);
    expect(await budget.pollWait('d', 4)).toBe(100);
    expect(await takeMany(budget, 'poll', 4)).toEqual([true, true, true, false]);
  });

  it('waits a whole window when the poller has no share', async () => {
    const time = clock();
    const budget = new MemoryRateBudget({
      limitPerMin: 1,
      pollBudgetPerMin: 5,
      windowMs: 1_000,
      now: time.now,
    });
    expect(await budget.pollWait('d', 1)).toBe(1_000);
    expect(await budget.take('d', 'poll')).toMatchObject({ granted: false, retryInMs: 1_000 });
  });

  it("gives the poller's share per minute to pace by, the limit off or on", () => {
    expect(pollShareOf(20, 8)).toBe(8);
    expect(pollShareOf(20, 100)).toBe(10);
    expect(pollShareOf(0, 7)).toBe(7);
  });
});

describe('the budget with the limit off', () => {
  it('never refuses a read or a mutation, and holds the poller to its share per window', async () => {
    const time = clock();
    const budget = new UnlimitedRateBudget({ pollBudgetPerMin: 3, windowMs: 1_000, now: time.now });
    expect(await takeMany(budget, 'read', 500)).toEqual(Array(500).fill(true));
    expect(await takeMany(budget, 'mutation', 500)).toEqual(Array(500).fill(true));
    expect(await budget.take('d', 'read')).toMatchObject({
      granted: true,
      remaining: Number.POSITIVE_INFINITY,
      at: 1_000_000,
    });
    expect(await budget.pollWait('d', 3)).toBe(0);
    expect(await budget.take('d', 'poll')).toMatchObject({ granted: true, remaining: 2, at: 1_000_000 });
    time.advance(200);
    expect(await takeMany(budget, 'poll', 3)).toEqual([true, true, false]);
    expect(await budget.take('d', 'poll')).toMatchObject({ granted: false, retryInMs: 800 });
    expect(await budget.pollWait('d', 1)).toBe(800);
    expect(await budget.pollWait('d', 2)).toBe(1_000);
    expect(await budget.pollWait('d', 100)).toBe(1_000);
    // Reads still pass while the poller waits.
    expect(await budget.take('d', 'read')).toMatchObject({ granted: true });
    time.advance(800);
    expect(await budget.pollWait('d', 1)).toBe(0);
    expect(await takeMany(budget, 'poll', 2)).toEqual([true, false]);
  });

  it('is what the shared state gives with UPSTREAM_RATE_LIMIT_PER_MIN=0', async () => {
    const shared = createSharedState({
      redis: { url: undefined, keyPrefix: 'ngw:', timeoutMs: 1_000, fallbackReplicas: 2 },
      cache: { ttlMs: 0, maxEntries: 10 },
      rateLimitPerMin: 0,
      livePollBudgetPerMin: 4,
    });
    expect(await takeMany(shared.budget, 'read', 300)).toEqual(Array(300).fill(true));
    expect(await shared.budget.pollWait('d', 4)).toBe(0);
    expect(await takeMany(shared.budget, 'poll', 5)).toEqual([true, true, true, true, false]);
    // A minute's window: the first poll leaves it within 60 s.
    const wait = await shared.budget.pollWait('d', 1);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await shared.budget.pollWait('other', 4)).toBe(0);
    await shared.close();
  });
});
