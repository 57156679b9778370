// State a stage keeps per key for a while (a refused credential), behind a
// small interface: the in-memory store here, a shared one (Redis) can take its place.
import { LRUCache } from 'lru-cache';

export interface ExpiringStore<V> {
  get(key: string): Promise<V | undefined>;
  /** Keeps `value` for `ttlMs`, replacing what the key held. */
  set(key: string, value: V, ttlMs: number): Promise<void>;
}

/** At most `maxEntries` keys, least recently used out first; expired entries are never answered. */
export class MemoryStore<V extends object | number | string | boolean> implements ExpiringStore<V> {
  private readonly entries: LRUCache<string, V>;

  constructor(maxEntries: number) {
    this.entries = new LRUCache<string, V>({ max: maxEntries });
  }

  /** Keys held now (tests: the bound holds). */
  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<V | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, value: V, ttlMs: number): Promise<void> {
    this.entries.set(key, value, { ttl: Math.max(1, Math.ceil(ttlMs)) });
  }
}
