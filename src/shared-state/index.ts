// Builds the gateway's shared state once per process: in Redis with per-process fallback when
// REDIS_URL is set, in this process otherwise. Consumers take each piece by its interface, so
// moving a kind of state to Redis is a swap of the object they are given.
import type { CacheConfig, RedisConfig } from '../config';
import type { Logger } from '../log';
import { type CacheStore, MemoryCacheStore } from './cache-store';
import {
  fallbackCacheStore,
  fallbackLeaseStore,
  fallbackPauseStore,
  fallbackRateBudget,
  fallbackSnapshotStore,
} from './fallback';
import { keyNames } from './keys';
import { type LeaseStore, MemoryLeaseStore } from './lease';
import { MemoryPauseStore, type PauseStore } from './pause-store';
import { MemoryRateBudget, type RateBudget, unlimitedBudget } from './rate-budget';
import { RedisCacheStore } from './redis-cache-store';
import { RedisConnection } from './redis-connection';
import { RedisLeaseStore } from './redis-lease';
import { RedisPauseStore } from './redis-pause-store';
import { RedisRateBudget } from './redis-rate-budget';
import { RedisSnapshotStore } from './redis-snapshot-store';
import { SharedEventTarget } from './shared-events';
import { MemorySnapshotStore, type SnapshotStore } from './snapshot-store';

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
  /** UPSTREAM_RATE_LIMIT_PER_MIN: the budget per credential (0: off). */
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
      budget: config.rateLimitPerMin === 0 ? unlimitedBudget() : memoryBudget(config, 1),
      events: undefined,
      redis: undefined,
      close: async () => undefined,
    };
  }
  const redis = new RedisConnection({ url: config.redis.url, timeoutMs: config.redis.timeoutMs, logger });
  const keys = keyNames(config.redis.keyPrefix);
  const { client } = redis;
  const budget =
    config.rateLimitPerMin === 0
      ? unlimitedBudget()
      : fallbackRateBudget(
          redis,
          new RedisRateBudget(client, keys, {
            limitPerMin: config.rateLimitPerMin,
            pollBudgetPerMin: config.livePollBudgetPerMin,
            windowMs: config.windowMs,
          }),
          memoryBudget(config, config.redis.fallbackReplicas),
        );
  return {
    budget,
    pauses: fallbackPauseStore(redis, new RedisPauseStore(client, keys), inProcess.pauses),
    cache: fallbackCacheStore(redis, new RedisCacheStore(client, keys, cacheOptions), inProcess.cache),
    leases: fallbackLeaseStore(redis, new RedisLeaseStore(client, keys), inProcess.leases),
    snapshots: fallbackSnapshotStore(redis, new RedisSnapshotStore(client, keys), inProcess.snapshots),
    events: new SharedEventTarget({ link: redis, client, subscriber: redis.subscriber, keys }),
    redis,
    close: () => redis.close(),
  };
}
