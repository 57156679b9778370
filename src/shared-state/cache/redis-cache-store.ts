// The read cache in Redis, shared by every replica: `<prefix>cache:<digest>:<generation>:<path>`
// holds one answer's JSON for CACHE_TTL_MS; `<prefix>cache-gen:<digest>` the credential's
// generation, moved on by each write. Old generations are never deleted one by one: their keys
// expire with their TTL. The generation key outlives every answer stored under it, so when it
// expires and counting starts again, nothing stored under a reused number is still there.
import type { Redis } from 'ioredis';
import type { KeyNames } from '../redis/keys';
import { redisScript } from '../redis/script';
import type { CacheLookup, CacheStore, CacheStoreOptions } from './cache-store';

// KEYS: the generation. ARGV: prefix of the answers, path. Returns {generation} or {generation, json}.
const LOOKUP = redisScript(`
local g = redis.call('GET', KEYS[1]) or '0'
local v = redis.call('GET', ARGV[1] .. g .. ':' .. ARGV[2])
if v then return {g, v} end
return {g}
`);

// KEYS: the generation. ARGV: generation read in, ttl ms, prefix, then path and json pairs.
const STORE = redisScript(`
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
local ttl = tonumber(ARGV[2])
for i = 4, #ARGV, 2 do
  redis.call('SET', ARGV[3] .. ARGV[1] .. ':' .. ARGV[i], ARGV[i + 1], 'PX', ttl)
end
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`);

export class RedisCacheStore implements CacheStore {
  constructor(
    private readonly client: Redis,
    private readonly keys: KeyNames,
    private readonly options: Pick<CacheStoreOptions, 'ttlMs'>,
  ) {}

  async lookup(digest: string, path: string): Promise<CacheLookup> {
    const reply = await LOOKUP(
      this.client,
      [this.keys.cacheGeneration(digest)],
      [this.keys.cacheEntries(digest), path],
    );
    // The generation is an INCR counter: anything else is no answer, and the call falls back.
    if (!Array.isArray(reply) || typeof reply[0] !== 'string' || !/^\d{1,15}$/.test(reply[0])) {
      throw new Error('unexpected cache reply');
    }
    const generation = Number(reply[0]);
    return typeof reply[1] === 'string'
      ? { hit: true, value: JSON.parse(reply[1]) }
      : { hit: false, generation };
  }

  async store(
    digest: string,
    generation: number,
    entries: Iterable<readonly [path: string, value: unknown]>,
  ): Promise<void> {
    // A negative generation was handed out by this process during an outage (outage-cache-store.ts).
    if (generation < 0) return;
    const pairs = [...entries].flatMap(([path, value]) => [path, JSON.stringify(value ?? null)]);
    if (pairs.length === 0) return;
    await STORE(
      this.client,
      [this.keys.cacheGeneration(digest)],
      [String(generation), this.options.ttlMs, this.keys.cacheEntries(digest), ...pairs],
    );
  }

  async forget(digest: string): Promise<void> {
    const key = this.keys.cacheGeneration(digest);
    await this.client.multi().incr(key).pexpire(key, this.options.ttlMs).exec();
  }
}
