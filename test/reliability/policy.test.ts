// The retry policy and Retry-After parsing on their own: which failures are retried, how long the
// waits are, and that none outlives the deadline.
import { describe, expect, it } from 'vitest';
import { MIN_ATTEMPT_MS } from '../../src/upstream/call/call-scope';
import { retryAfterFromHeader as retryAfterSeconds } from '../../src/upstream/exchange/retry-after';
import { backoffMs, type FailedAttempt, type RetryPolicy, retryDelay } from '../../src/upstream/stages/retry';

const policy = (random = 0.5): RetryPolicy => ({
  retries: 3,
  baseMs: 100,
  maxDelayMs: 2_000,
  random: () => random,
});
const failure = (over: Partial<FailedAttempt>): FailedAttempt => ({
  method: 'GET',
  code: 'UPSTREAM_UNAVAILABLE',
  status: 503,
  delivery: 'sent',
  attempt: 1,
  remainingMs: Number.POSITIVE_INFINITY,
  ...over,
});

describe('retry policy', () => {
  it('backoff doubles per attempt, half fixed and half jitter, capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(policy(0), a))).toEqual([50, 100, 200, 400, 800, 1000]);
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(policy(0.999_999), a))).toEqual([
      100, 200, 400, 800, 1600, 2000,
    ]);
  });

  it('reads: 429, 502, 503, 504 and connection errors; not 500, 4xx or timeouts', () => {
    const retried = (f: Partial<FailedAttempt>) => retryDelay(policy(), failure(f)) !== undefined;
    for (const status of [429, 502, 503, 504]) expect(retried({ status })).toBe(true);
    for (const status of [400, 401, 403, 404, 408, 500, 501]) expect(retried({ status })).toBe(false);
    expect(retried({ status: undefined, code: 'UPSTREAM_UNAVAILABLE' })).toBe(true);
    expect(retried({ status: undefined, code: 'UPSTREAM_TIMEOUT' })).toBe(false);
    expect(retried({ status: 200, code: 'UPSTREAM_BAD_RESPONSE' })).toBe(false);
  });

  it('writes: only when the connection was never made; never what the gateway refused itself', () => {
    for (const method of ['PUT', 'DELETE']) {
      expect(retryDelay(policy(), failure({ method, status: 503 }))).toBeUndefined();
      expect(retryDelay(policy(), failure({ method, status: 429 }))).toBeUndefined();
      expect(retryDelay(policy(), failure({ method, status: undefined }))).toBeUndefined();
      expect(retryDelay(policy(), failure({ method, status: undefined, delivery: 'unsent' }))).toBe(75);
    }
    expect(retryDelay(policy(), failure({ delivery: 'local' }))).toBeUndefined();
  });

  it('Retry-After wins over backoff; a retry that does not fit the deadline is not made', () => {
    expect(retryDelay(policy(), failure({ status: 429, retryAfter: 2 }))).toBe(2_000);
    expect(retryDelay(policy(), failure({ status: 429, retryAfter: 2, remainingMs: 2_000 }))).toBeUndefined();
    expect(retryDelay(policy(), failure({ remainingMs: 75 + MIN_ATTEMPT_MS }))).toBe(75);
    expect(retryDelay(policy(), failure({ remainingMs: 74 + MIN_ATTEMPT_MS }))).toBeUndefined();
  });

  it('at most `retries` retries', () => {
    expect(retryDelay(policy(), failure({ attempt: 3 }))).toBe(300);
    expect(retryDelay(policy(), failure({ attempt: 4 }))).toBeUndefined();
    expect(retryDelay({ ...policy(), retries: 0 }, failure({}))).toBeUndefined();
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-09-04T10:00:00Z');
  it('reads delta-seconds and HTTP dates as 1..60 s; ignores garbage', () => {
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds(' 0 ', now)).toBe(1);
    expect(retryAfterSeconds('Thu, 04 Sep 2025 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 04 Sep 2025 09:59:00 GMT', now)).toBe(1);
    expect(retryAfterSeconds('1000000000', now)).toBe(60);
    expect(retryAfterSeconds('9'.repeat(400), now)).toBe(60);
    expect(retryAfterSeconds('Thu, 04 Sep 2025 11:00:00 GMT', now)).toBe(60);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('-5', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
