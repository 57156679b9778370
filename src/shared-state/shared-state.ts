// Builds the gateway's shared state once per process: in Redis with per-process fallback when
// REDIS_URL is set, in this process otherwise. Consumers take each piece by its interface, so
// moving a kind of state to Redis is a swap of the object they are given.
import type { CacheConfig, RedisConfig } from '../config';
import type { Logger } from '../log';
import { MemoryRateBudget } from './budget/memory-rate-budget';
import type { RateBudget } from './budget/rate-budget';
import { RedisRateBudget } from './budget/redis-rate-budget';
import { UnlimitedRateBudget } from './budget/unlimited-rate-budget';
import type { CacheStore } from './cache/cache-store';
import { MemoryCacheStore } from './cache/memory-cache-store';
import { OutageCacheStore } from './cache/outage-cache-store';
import { RedisCacheStore } from './cache/redis-cache-store';
import { SharedEventTarget } from './events/shared-events';
import { withFallback } from './fallback';
import type { LeaseStore } from './lease/lease-store';
import { MemoryLeaseStore } from './lease/memory-lease-store';
import { OutageLeaseStore } from './lease/outage-lease-store';
import { RedisLeaseStore } from './lease/redis-lease-store';
import { MemoryPauseStore } from './pause/memory-pause-store';
import type { PauseStore } from './pause/pause-store';
import { RedisPauseStore } from './pause/redis-pause-store';
import { RedisConnection } from './redis/connection';
import { keyNames } from './redis/keys';
import { MemorySnapshotStore } from './snapshots/memory-snapshot-store';
import { RedisSnapshotStore } from './snapshots/redis-snapshot-store';
import type { SnapshotStore } from './snapshots/snapshot-store';

export interface SharedState {
  readonly budget: RateBudget;
  readonly pauses: PauseStore;
  readonly cache: CacheStore;
  readonly leases: LeaseStore;
  readonly snapshots: SnapshotStore;
  /** For createPubSub({ eventTarget }); undefined without Redis (yoga's in-process default). */
  readonly events: SharedEventTarget | undefined;
  /** The Redis connection when REDIS_URL is set (readiness, metrics). */
  readonly redis: RedisConnection | undefined;
  close(): Promise<void>;
}

export interface SharedStateConfig {
  readonly redis: RedisConfig;
  readonly cache: CacheConfig;
  /** UPSTREAM_RATE_LIMIT_PER_MIN: the budget per credential (0: off but for the poller's share). */
  readonly rateLimitPerMin: number;
  /** LIVE_POLL_BUDGET_PER_MIN: the live poller's share of the budget. */
  readonly livePollBudgetPerMin: number;
  /** The budget's rolling window (60 000; tests shorten it). */
  readonly windowMs?: number;
}

/** The per-process budget: the whole limit alone, this replica's share of it while Redis is down. */
function memoryBudget(config: SharedStateConfig, replicas: number): MemoryRateBudget {
  return new MemoryRateBudget({
    limitPerMin: Math.max(1, Math.floor(config.rateLimitPerMin / replicas)),
    pollBudgetPerMin: Math.floor(config.livePollBudgetPerMin / replicas),
    windowMs: config.windowMs,
  });
}

/** With the limit off, only the poller is counted, per process even with Redis (see the class). */
const pollOnlyBudget = (config: SharedStateConfig): RateBudget =>
  new UnlimitedRateBudget({ pollBudgetPerMin: config.livePollBudgetPerMin, windowMs: config.windowMs });

export function createSharedState(config: SharedStateConfig, logger?: Logger): SharedState {
  const cacheOptions = { ttlMs: Math.max(1, config.cache.ttlMs), maxEntries: config.cache.maxEntries };
  const inProcess = {
    pauses: new MemoryPauseStore(),
    cache: new MemoryCacheStore(cacheOptions),
    leases: new MemoryLeaseStore(),
    snapshots: new MemorySnapshotStore(),
  };
  if (config.redis.url === undefined) {
    return {
      ...inProcess,
      budget: config.rateLimitPerMin === 0 ? pollOnlyBudget(config) : memoryBudget(config, 1),
      events: undefined,
      redis: undefined,
      close: async () => undefined,
    };
  }
  const redis = new RedisConnection({ url: config.redis.url, timeoutMs: config.redis.timeoutMs, logger });
  const keys = keyNames(config.redis.keyPrefix);
  const { client } = redis;
  const budgetOptions = {
    limitPerMin: config.rateLimitPerMin,
    pollBudgetPerMin: config.livePollBudgetPerMin,
    windowMs: config.windowMs,
  };
  const budget =
    config.rateLimitPerMin === 0
      ? pollOnlyBudget(config)
      : withFallback<RateBudget, RedisRateBudget>(
          redis,
          { take: true, pollWait: true, waitFor: true, reserve: true, release: true },
          new RedisRateBudget(client, keys, budgetOptions),
          memoryBudget(config, config.redis.fallbackReplicas),
        );
  return {
    budget,
    pauses: withFallback<PauseStore>(
      redis,
      { pause: true, pausedUntil: true },
      new RedisPauseStore(client, keys),
      inProcess.pauses,
    ),
    cache: withFallback<CacheStore>(
      redis,
      { lookup: true, store: true, forget: true },
      new RedisCacheStore(client, keys, cacheOptions),
      new OutageCacheStore(inProcess.cache),
    ),
    leases: withFallback<LeaseStore>(
      redis,
      { acquire: true, renew: true, release: true },
      new RedisLeaseStore(client, keys),
      new OutageLeaseStore(inProcess.leases, redis),
    ),
    snapshots: withFallback<SnapshotStore>(
      redis,
      { get: true, set: true, read: true, swap: true },
      new RedisSnapshotStore(client, keys),
      inProcess.snapshots,
    ),
    events: new SharedEventTarget({ link: redis, client, subscriber: redis.subscriber, keys }),
    redis,
    close: () => redis.close(),
  };
}
