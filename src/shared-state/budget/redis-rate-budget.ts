// The upstream budget in Redis, shared by every replica: per credential digest a sorted set of the
// calls in the rolling window (score: Redis's own clock, so replicas' clocks never disagree) and one
// per kind of call (the poller's, client reads, writes), whose sizes make each answer's standing. One Lua script trims, counts and claims atomically: N replicas bursting
// together never put more than the limit in any window. A second, read-only script answers how
// long the poller must wait before a walk, from the same keys. A reservation's holds are members
// of the calls' set (`<id>:<index>`, scored when reserved): counted like calls, gone with the
// window if the replica that placed them dies, each swapped for a call by TAKE in the same step.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { KeyNames } from '../redis/keys';
import { integersOf, redisScript } from '../redis/script';
import type { WindowCalls, WindowRecorder } from './memory-rate-budget';
import {
  type BudgetDecision,
  type Ceilings,
  type ClaimKind,
  type ClientKind,
  ceilingsOf,
  clientCallsWithin,
  type Demand,
  type Hold,
  holdsOf,
  pollCallsWithin,
  type RateBudget,
  type RateBudgetOptions,
  type Reservation,
  type ReserveDecision,
  standingOf,
  WINDOW_MS,
} from './rate-budget';

// KEYS: every call (holds too), then the calls of each kind: the poller's, client reads, writes.
// ARGV: window ms, ceiling, the poller's cap (-1: not a poll), a suffix that makes the member
// unique, the hold this call takes ('' none), the key of the call's kind (2, 3 or 4). Returns
// {1, remaining, now, counts...} or {0, ms until a slot, now, counts...}, the counts those of KEYS
// after the claim. A hold still in the window becomes the call, with no ceiling.
const TAKE = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
for i = 1, 4 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window) end
local kind = KEYS[tonumber(ARGV[6])]
local function counts()
  return redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3]),
    redis.call('ZCARD', KEYS[4])
end
local function claim(member)
  redis.call('ZADD', KEYS[1], now, member)
  redis.call('PEXPIRE', KEYS[1], window)
  redis.call('ZADD', kind, now, member)
  redis.call('PEXPIRE', kind, window)
end
if ARGV[5] ~= '' and redis.call('ZREM', KEYS[1], ARGV[5]) == 1 then
  claim(now .. '-' .. ARGV[4])
  local all, polls, reads, writes = counts()
  return {1, math.max(0, tonumber(ARGV[2]) - all), now, all, polls, reads, writes}
end
local function freeAt(key, cap)
  local n = redis.call('ZCARD', key)
  if n < cap then return now, n end
  if cap <= 0 then return now + window, n end
  local oldest = redis.call('ZRANGE', key, n - cap, n - cap, 'WITHSCORES')
  return tonumber(oldest[2]) + window, n
end
local ceiling = tonumber(ARGV[2])
local pollCap = tonumber(ARGV[3])
local at, calls = freeAt(KEYS[1], ceiling)
local polls = 0
if pollCap >= 0 then
  local pollAt
  pollAt, polls = freeAt(KEYS[2], pollCap)
  if pollAt > at then at = pollAt end
end
if at > now then
  local all, p, reads, writes = counts()
  return {0, at - now, now, all, p, reads, writes}
end
claim(now .. '-' .. ARGV[4])
local left = ceiling - calls - 1
if pollCap >= 0 then left = math.min(left, pollCap - polls - 1) end
local all, p, reads, writes = counts()
return {1, left, now, all, p, reads, writes}
`);

// KEYS: every call, the poller's calls. ARGV: window ms, the window's cap for `n` more calls (the
// ceiling - n + 1), the poller's cap for them (its share - n + 1; no cap for a client's calls).
// Reads only: calls that left the window are skipped, not trimmed. Returns {ms until both have
// room, now}.
const WAIT = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local since = '(' .. (now - window)
local function freeAt(key, cap)
  local n = redis.call('ZCOUNT', key, since, '+inf')
  if n < cap then return now end
  if cap <= 0 then return now + window end
  local oldest = redis.call('ZRANGEBYSCORE', key, since, '+inf', 'WITHSCORES', 'LIMIT', n - cap, 1)
  return tonumber(oldest[2]) + window
end
local at = math.max(freeAt(KEYS[1], tonumber(ARGV[2])), freeAt(KEYS[2], tonumber(ARGV[3])))
return {at - now, now}
`);

// KEYS: every call. ARGV: window ms, the cap before the demand for all its calls and for its reads
// (as WAIT's), the holds to place, the reservation's id. Returns {1, holds placed, now} or {0, ms
// until both caps have room, now}.
const RESERVE = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
local function freeAt(cap)
  if n < cap then return now end
  if cap <= 0 then return now + window end
  local oldest = redis.call('ZRANGE', KEYS[1], n - cap, n - cap, 'WITHSCORES')
  return tonumber(oldest[2]) + window
end
local at = math.max(freeAt(tonumber(ARGV[2])), freeAt(tonumber(ARGV[3])))
if at > now then return {0, at - now, now} end
local holds = tonumber(ARGV[4])
for i = 1, holds do redis.call('ZADD', KEYS[1], now, ARGV[5] .. ':' .. i) end
if holds > 0 then redis.call('PEXPIRE', KEYS[1], window) end
return {1, holds, now}
`);

/** Which of TAKE's KEYS holds the calls of a kind. */
const KIND_KEY: Readonly<Record<ClaimKind, number>> = { poll: 2, read: 3, mutation: 4 };

/** The poller's cap of a wait for a client's calls: none. */
const NO_CAP = 2 ** 31;

export class RedisRateBudget implements RateBudget, WindowRecorder {
  private readonly ceilings: Ceilings;
  private readonly windowMs: number;
  /** Members must be unique across replicas: two calls in one millisecond are two calls. */
  private readonly replica = randomBytes(6).toString('base64url');
  private sequence = 0;

  constructor(
    private readonly client: Redis,
    private readonly keys: KeyNames,
    options: RateBudgetOptions,
  ) {
    this.ceilings = ceilingsOf(options.limitPerMin, options.pollBudgetPerMin);
    this.windowMs = options.windowMs ?? WINDOW_MS;
  }

  async take(digest: string, kind: ClaimKind, hold?: Hold): Promise<BudgetDecision> {
    const reply = await TAKE(
      this.client,
      [
        this.keys.budget(digest),
        this.keys.pollBudget(digest),
        this.keys.readBudget(digest),
        this.keys.writeBudget(digest),
      ],
      [
        this.windowMs,
        this.ceilings[kind],
        kind === 'poll' ? this.ceilings.pollOwn : -1,
        this.member(),
        hold === undefined ? '' : `${hold.id}:${hold.index}`,
        KIND_KEY[kind],
      ],
    );
    const [granted, value = -1, now = 0, all = -1, polls = -1, reads = -1, writes = -1] = integersOf(
      reply,
      7,
    );
    const held = all - polls - reads - writes;
    // What the script cannot return is no decision: the call falls back to per-process state.
    if (now <= 0 || Math.min(polls, reads, writes, held) < 0) throw new Error('unexpected budget reply');
    const standing = standingOf({ reads, writes, polls, held }, this.ceilings, hold?.unused);
    if (granted === 1 && value >= 0 && value < this.ceilings[kind])
      return { granted: true, remaining: value, at: now, standing };
    if (granted === 0 && value > 0 && value <= this.windowMs)
      return { granted: false, retryInMs: value, standing };
    throw new Error('unexpected budget reply');
  }

  async reserve(digest: string, demand: Demand): Promise<ReserveDecision> {
    const { holds, allCap, readCap } = holdsOf(demand, this.ceilings);
    const id = `h:${this.member()}`;
    const reply = await RESERVE(
      this.client,
      [this.keys.budget(digest)],
      [this.windowMs, Math.min(allCap, NO_CAP), Math.min(readCap, NO_CAP), holds, id],
    );
    const [granted, value = -1, now = 0] = integersOf(reply, 3);
    // As with take: what the script cannot return is no decision, and the call falls back.
    if (now <= 0) throw new Error('unexpected budget reply');
    if (granted === 1 && value === holds)
      return { granted: true, reservation: { id, digest, held: holds, used: 0 } };
    if (granted === 0 && value > 0 && value <= this.windowMs) return { granted: false, retryInMs: value };
    throw new Error('unexpected budget reply');
  }

  async release(reservation: Reservation): Promise<void> {
    // Every hold handed to a call (a prediction made exact): no round trip. A call that fell back to
    // this process during an outage leaves its hold here until the window ends it.
    if (reservation.used >= reservation.held) return;
    const holds = Array.from({ length: reservation.held }, (_, i) => `${reservation.id}:${i + 1}`);
    // Removing a hold a call already took, or one that left the window, removes nothing.
    await this.client.zrem(this.keys.budget(reservation.digest), ...holds);
  }

  async pollWait(digest: string, calls: number): Promise<number> {
    const { poll, pollOwn } = this.ceilings;
    const n = pollCallsWithin(calls, pollOwn);
    return this.wait(digest, poll - n + 1, pollOwn - n + 1);
  }

  async waitFor(digest: string, kind: ClientKind, calls: number): Promise<number> {
    const ceiling = this.ceilings[kind];
    return this.wait(digest, ceiling - clientCallsWithin(calls, ceiling) + 1, NO_CAP);
  }

  private async wait(digest: string, cap: number, pollCap: number): Promise<number> {
    const reply = await WAIT(
      this.client,
      [this.keys.budget(digest), this.keys.pollBudget(digest)],
      [this.windowMs, cap, pollCap],
    );
    const [waitMs = -1, now = 0] = integersOf(reply, 2);
    // As with take: what the script cannot return is no answer, and the call falls back.
    if (now <= 0 || waitMs < 0 || waitMs > this.windowMs) throw new Error('unexpected budget reply');
    return waitMs;
  }

  /** Adds calls granted elsewhere (by the in-process fallback during an outage) to the window. */
  async record(digest: string, window: WindowCalls): Promise<void> {
    if (window.calls.length === 0) return;
    const scored = (times: readonly number[]) => times.flatMap((at) => [at, `${at}-${this.member()}`]);
    const batch = this.client.multi();
    batch.zadd(this.keys.budget(digest), ...scored(window.calls));
    batch.pexpire(this.keys.budget(digest), this.windowMs);
    const kinds: [string, readonly number[]][] = [
      [this.keys.pollBudget(digest), window.polls],
      [this.keys.readBudget(digest), window.reads],
      [this.keys.writeBudget(digest), window.writes],
    ];
    for (const [key, times] of kinds) {
      if (times.length === 0) continue;
      batch.zadd(key, ...scored(times));
      batch.pexpire(key, this.windowMs);
    }
    await batch.exec();
  }

  private member(): string {
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    return `${this.replica}:${this.sequence}`;
  }
}
