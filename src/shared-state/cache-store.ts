// The read cache's storage (CACHE_TTL_MS): answers keyed by (credential digest, request path),
// each stored under the credential's generation. A write moves the generation on ("forget"), which
// makes everything cached before it unreachable at once, including a read that was under way and
// stores its answer after the write: it stores under the old generation, which nobody reads.
import { LRUCache } from 'lru-cache';

export type CacheLookup =
  | { readonly hit: true; readonly value: unknown }
  | { readonly hit: false; readonly generation: number };

export interface CacheStore {
  /** The cached answer, or the generation a fresh answer must be stored under. */
  lookup(digest: string, path: string): Promise<CacheLookup>;
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

  async lookup(digest: string, path: string): Promise<CacheLookup> {
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
