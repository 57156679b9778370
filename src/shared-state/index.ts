// The shared state's public surface: what the rest of the gateway imports. Each kind lives in its
// own folder (interface, per-process and Redis sides); shared-state.ts puts them together.
export { /** @internal test seam */ MemoryRateBudget } from './budget/memory-rate-budget';
export {
  /** @internal test seam */ type BudgetDecision,
  type ClaimKind,
  /** @internal test seam */ ceilingsOf,
  /** @internal test seam */ type Hold,
  nextHold,
  pollShareOf,
  type RateBudget,
  type Reservation,
  retryAfterFromMs,
  type Standing,
} from './budget/rate-budget';
export { /** @internal test seam */ UnlimitedRateBudget } from './budget/unlimited-rate-budget';
export type { CacheLookup, CacheStore } from './cache/cache-store';
export {
  /** @internal test seam */ MemoryCacheStore,
  unexpiringCacheStore,
} from './cache/memory-cache-store';
export type { LeaseStore, Renewal } from './lease/lease-store';
export { /** @internal test seam */ MemoryLeaseStore } from './lease/memory-lease-store';
export { MemoryPauseStore } from './pause/memory-pause-store';
export { MAX_PAUSE_MS, type PauseStore } from './pause/pause-store';
export type { RedisConnection } from './redis/connection';
export { registerRedisMetrics } from './redis/metrics';
export { createSharedState, type SharedState } from './shared-state';
export { /** @internal test seam */ MemorySnapshotStore } from './snapshots/memory-snapshot-store';
export type {
  SnapshotChange,
  SnapshotStore,
  /** @internal test seam */ StoredSnapshot,
} from './snapshots/snapshot-store';
