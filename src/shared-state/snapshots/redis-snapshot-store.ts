// Snapshots in Redis. A plain value lives at `<prefix>snapshot:<key>` (JSON, expiring); a versioned
// snapshot is the hash `<prefix>live-snapshot:<name>` with its version (v) and JSON (d). Versions come
// from Redis's own clock (TIME, in microseconds) and are never below the stored one: no replica's
// clock orders anything. Both scripts run atomically, so a swap is a compare-and-set.
import type { Redis } from 'ioredis';
import type { KeyNames } from '../redis/keys';
import { redisScript } from '../redis/script';
import type { SnapshotStore, StoredSnapshot } from './snapshot-store';

// KEYS: the hash. ARGV: the version the reader knows. Returns {v} when it is that one, {v, d} otherwise.
const READ = redisScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {} end
if v == ARGV[1] then return {v} end
return {v, redis.call('HGET', KEYS[1], 'd')}
`);

// KEYS: the hash. ARGV: expected version (0: none), JSON, ttl ms. Returns the new version, or 0.
const SWAP = redisScript(`
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then return 0 end
local t = redis.call('TIME')
local v = math.max(tonumber(t[1]) * 1000000 + tonumber(t[2]), current + 1)
local text = string.format('%.0f', v)
redis.call('HSET', KEYS[1], 'v', text, 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return text
`);

export class RedisSnapshotStore implements SnapshotStore {
  constructor(
    private readonly client: Redis,
    private readonly keys: KeyNames,
  ) {}

  async get(key: string): Promise<unknown> {
    const raw: unknown = await this.client.get(this.keys.snapshot(key));
    if (raw !== null && typeof raw !== 'string') throw new Error('unexpected snapshot reply');
    return raw === null ? undefined : JSON.parse(raw);
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.client.set(this.keys.snapshot(key), JSON.stringify(value ?? null), 'PX', Math.ceil(ttlMs));
  }

  async read(name: string, known: number): Promise<StoredSnapshot | undefined> {
    const reply = await READ(this.client, [this.keys.liveSnapshot(name)], [String(known)]);
    if (!Array.isArray(reply) || !reply.every((part) => typeof part === 'string'))
      throw new Error('unexpected snapshot reply');
    const [version, data] = reply as string[];
    if (version === undefined) return undefined;
    const stored = Number(version);
    if (!Number.isSafeInteger(stored)) throw new Error('unexpected snapshot version');
    return data === undefined ? { version: stored } : { version: stored, value: JSON.parse(data) };
  }

  async swap(name: string, expected: number, value: unknown, ttlMs: number): Promise<number> {
    const reply: unknown = await SWAP(
      this.client,
      [this.keys.liveSnapshot(name)],
      [String(expected), JSON.stringify(value), Math.ceil(ttlMs)],
    );
    const version = Number(reply);
    if (!Number.isSafeInteger(version)) throw new Error('unexpected snapshot version');
    return version;
  }
}
