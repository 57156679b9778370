// The shared state's public surface: what the rest of the gateway imports. Each kind lives in its
// own folder (interface, per-process and Redis sides); shared-state.ts puts them together.
export { MemoryRateBudget } from './budget/memory-rate-budget';
export {
  type BudgetDecision,
  type Ceilings,
  type ClaimKind,
  ceilingsOf,
  pollShareOf,
  type RateBudget,
  retryAfterFromMs,
  WINDOW_MS,
} from './budget/rate-budget';
export { UnlimitedRateBudget } from './budget/unlimited-rate-budget';
export type { CacheLookup, CacheStore } from './cache/cache-store';
export { MemoryCacheStore } from './cache/memory-cache-store';
export type { SharedEventTarget } from './events/shared-events';
export type { LeaseStore } from './lease/lease-store';
export { MemoryLeaseStore } from './lease/memory-lease-store';
export { MemoryPauseStore } from './pause/memory-pause-store';
export { MAX_PAUSE_MS, type PauseStore } from './pause/pause-store';
export type { RedisConnection, RedisState } from './redis/connection';
export { registerRedisMetrics } from './redis/metrics';
export { createSharedState, type SharedState, type SharedStateConfig } from './shared-state';
export { MemorySnapshotStore } from './snapshots/memory-snapshot-store';
export type { SnapshotChange, SnapshotStore, StoredSnapshot } from './snapshots/snapshot-store';
