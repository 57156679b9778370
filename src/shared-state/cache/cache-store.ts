// The read cache's storage (CACHE_TTL_MS): answers keyed by (credential digest, request path),
// each stored under the credential's generation. A write moves the generation on ("forget"), which
// makes everything cached before it unreachable at once, including a read that was under way and
// stores its answer after the write: it stores under the old generation, which nobody reads.

export type CacheLookup =
  | { readonly hit: true; readonly value: unknown }
  | { readonly hit: false; readonly generation: number };

export interface CacheStore {
  /**
   * The cached answer, or the generation a fresh answer must be stored under; a store in this
   * process answers at once, with no promise.
   */
  lookup(digest: string, path: string): CacheLookup | Promise<CacheLookup>;
  /** Stores answers read in `generation`; dropped when the credential wrote since. */
  store(
    digest: string,
    generation: number,
    entries: Iterable<readonly [path: string, value: unknown]>,
  ): Promise<void>;
  /** Drops everything cached for the credential (a write went through it). */
  forget(digest: string): Promise<void>;
}

export interface CacheStoreOptions {
  readonly ttlMs: number;
  /** Answers held at most, over all credentials (least recently used out first). */
  readonly maxEntries: number;
}
