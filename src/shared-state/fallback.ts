// Each kind of shared state, in Redis while Redis is up and in this process while it is down,
// switching both ways without a restart. No Redis failure reaches a caller: a call that fails on
// Redis is answered from per-process state. When Redis returns, what the outage changed is handed
// to it where it matters (calls against the budget, running pauses, cache invalidations) and the
// per-process copies are cleared, so a later outage starts from nothing stale.
import { LRUCache } from 'lru-cache';
import type { CacheLookup, CacheStore, MemoryCacheStore } from './cache-store';
import type { LeaseStore, MemoryLeaseStore } from './lease';
import type { MemoryPauseStore, PauseStore } from './pause-store';
import type { MemoryRateBudget, RateBudget } from './rate-budget';
import type { RedisCacheStore } from './redis-cache-store';
import type { RedisLink } from './redis-connection';
import type { RedisPauseStore } from './redis-pause-store';
import type { RedisRateBudget } from './redis-rate-budget';
import type { MemorySnapshotStore, SnapshotStore } from './snapshot-store';

/** Redis's answer while it is up and answers; the per-process one otherwise. */
export async function preferRedis<T>(
  link: RedisLink,
  viaRedis: () => Promise<T>,
  inProcess: () => Promise<T>,
): Promise<T> {
  if (!link.up) return inProcess();
  try {
    return await viaRedis();
  } catch (error) {
    link.commandFailed(error);
    return inProcess();
  }
}

/** Runs `handOver` each time Redis comes back; its failures only mean less is handed over. */
function onRecovery(link: RedisLink, handOver: () => Promise<void>): void {
  link.onChange((state) => {
    if (state === 'up') handOver().catch((error: unknown) => link.commandFailed(error));
  });
}

/** The budget; `memory` holds this replica's share of the limit (see createSharedState). */
export function fallbackRateBudget(
  link: RedisLink,
  redis: RedisRateBudget,
  memory: MemoryRateBudget,
): RateBudget {
  onRecovery(link, async () => {
    for (const [digest, window] of memory.drain()) await redis.record(digest, window);
  });
  return {
    take: (digest, kind) =>
      preferRedis(
        link,
        () => redis.take(digest, kind),
        () => memory.take(digest, kind),
      ),
  };
}

export function fallbackPauseStore(
  link: RedisLink,
  redis: RedisPauseStore,
  memory: MemoryPauseStore,
): PauseStore {
  onRecovery(link, async () => {
    for (const [digest, until] of memory.drain()) await redis.pause(digest, until);
  });
  return {
    pause: (digest, untilMs) =>
      preferRedis(
        link,
        () => redis.pause(digest, untilMs),
        () => memory.pause(digest, untilMs),
      ),
    pausedUntil: (digest) =>
      preferRedis(
        link,
        () => redis.pausedUntil(digest),
        () => memory.pausedUntil(digest),
      ),
  };
}

/**
 * The cache. Generations from per-process state are handed out as negative numbers, so an answer
 * read on one side is never stored on the other, where its generation means something else.
 */
export function fallbackCacheStore(
  link: RedisLink,
  redis: RedisCacheStore,
  memory: MemoryCacheStore,
  options: { maxForgotten?: number } = {},
): CacheStore {
  // Credentials that wrote during the outage: Redis must forget their answers when it is back.
  const forgotten = new LRUCache<string, true>({ max: options.maxForgotten ?? 10_000 });
  onRecovery(link, async () => {
    memory.clear();
    const digests = [...forgotten.keys()];
    forgotten.clear();
    for (const digest of digests) await redis.forget(digest);
  });
  const inProcess = async (digest: string, path: string): Promise<CacheLookup> => {
    const found = await memory.lookup(digest, path);
    return found.hit ? found : { hit: false, generation: -found.generation - 1 };
  };
  return {
    lookup: (digest, path) =>
      preferRedis(
        link,
        () => redis.lookup(digest, path),
        () => inProcess(digest, path),
      ),
    store: async (digest, generation, entries) => {
      if (generation >= 0) {
        if (link.up)
          await redis.store(digest, generation, entries).catch((e: unknown) => link.commandFailed(e));
      } else if (!link.up) {
        await memory.store(digest, -generation - 1, entries);
      }
    },
    forget: (digest) =>
      preferRedis(
        link,
        () => redis.forget(digest),
        async () => {
          forgotten.set(digest, true);
          await memory.forget(digest);
        },
      ),
  };
}

export function fallbackLeaseStore(link: RedisLink, redis: LeaseStore, memory: MemoryLeaseStore): LeaseStore {
  // Back on Redis, the cluster decides again who holds a lease: a holder's renew says whether it still does.
  onRecovery(link, async () => memory.clear());
  return {
    acquire: (name, holder, ttlMs) =>
      preferRedis(
        link,
        () => redis.acquire(name, holder, ttlMs),
        () => memory.acquire(name, holder, ttlMs),
      ),
    renew: (name, holder, ttlMs) =>
      preferRedis(
        link,
        () => redis.renew(name, holder, ttlMs),
        () => memory.renew(name, holder, ttlMs),
      ),
    release: (name, holder) =>
      preferRedis(
        link,
        () => redis.release(name, holder),
        () => memory.release(name, holder),
      ),
  };
}

export function fallbackSnapshotStore(
  link: RedisLink,
  redis: SnapshotStore,
  memory: MemorySnapshotStore,
): SnapshotStore {
  onRecovery(link, async () => memory.clear());
  return {
    get: (digest) =>
      preferRedis(
        link,
        () => redis.get(digest),
        () => memory.get(digest),
      ),
    set: (digest, snapshot, ttlMs) =>
      preferRedis(
        link,
        () => redis.set(digest, snapshot, ttlMs),
        () => memory.set(digest, snapshot, ttlMs),
      ),
  };
}
