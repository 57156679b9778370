// The read cache in this process (rules in cache-store.ts), bounded in answers and generations.
import { LRUCache } from 'lru-cache';
import type { CacheLookup, CacheStore, CacheStoreOptions } from './cache-store';

export class MemoryCacheStore implements CacheStore {
  private readonly entries: LRUCache<string, { readonly value: unknown }>;
  /** Generations of credentials that wrote; bounded like the entries. */
  private readonly generations: LRUCache<string, number>;
  private counter = 0;
  /**
   * The generation of a credential with none of its own: the highest one ever dropped from the
   * bounded map, so a forgotten generation never comes back and revives old answers.
   */
  private floor = 0;

  constructor(options: CacheStoreOptions) {
    this.entries = new LRUCache({ max: options.maxEntries, ttl: options.ttlMs });
    this.generations = new LRUCache({
      max: options.maxEntries,
      dispose: (generation) => {
        this.floor = Math.max(this.floor, generation);
      },
    });
  }

  get size(): number {
    return this.entries.size;
  }

  lookup(digest: string, path: string): CacheLookup {
    const generation = this.generationOf(digest);
    const entry = this.entries.get(keyOf(digest, generation, path));
    return entry ? { hit: true, value: entry.value } : { hit: false, generation };
  }

  async store(
    digest: string,
    generation: number,
    entries: Iterable<readonly [path: string, value: unknown]>,
  ): Promise<void> {
    if (generation !== this.generationOf(digest)) return;
    for (const [path, value] of entries) this.entries.set(keyOf(digest, generation, path), { value });
  }

  async forget(digest: string): Promise<void> {
    this.counter = Math.max(this.counter, this.floor) + 1;
    this.generations.set(digest, this.counter);
  }

  /** Forgets every answer (Redis is back; these may miss writes made through other replicas). */
  clear(): void {
    this.entries.clear();
  }

  private generationOf(digest: string): number {
    return this.generations.get(digest) ?? this.floor;
  }
}

// Digests have no spaces (base64url): the key cannot be confused across credentials.
const keyOf = (digest: string, generation: number, path: string) => `${digest} ${generation} ${path}`;

/** A store of this process alone, without expiry, of `maxEntries` answers (one live observation's joins). */
export const unexpiringCacheStore = (maxEntries: number): CacheStore =>
  new MemoryCacheStore({ ttlMs: 0, maxEntries });
