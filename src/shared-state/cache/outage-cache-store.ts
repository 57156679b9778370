// The read cache while Redis is down: this process's cache, with its generations handed out as
// negative numbers, so an answer read on one side is never stored on the other, where its
// generation means something else. Writes made meanwhile are remembered: when Redis is back it
// must forget those credentials' answers too, and the per-process answers are dropped.
import { LRUCache } from 'lru-cache';
import type { CacheLookup, CacheStore } from './cache-store';
import type { MemoryCacheStore } from './memory-cache-store';

/** A per-process generation as the fallback hands it out (-1, -2, ...) and back. */
const outside = (generation: number): number => -generation - 1;

export class OutageCacheStore implements CacheStore {
  /** Credentials that wrote during the outage: Redis must forget their answers when it is back. */
  private readonly forgotten: LRUCache<string, true>;

  constructor(
    private readonly memory: MemoryCacheStore,
    options: { maxForgotten?: number } = {},
  ) {
    this.forgotten = new LRUCache({ max: options.maxForgotten ?? 10_000 });
  }

  async lookup(digest: string, path: string): Promise<CacheLookup> {
    const found = await this.memory.lookup(digest, path);
    return found.hit ? found : { hit: false, generation: outside(found.generation) };
  }

  /** Only answers read here are stored here (negative generations); Redis's are dropped. */
  async store(
    digest: string,
    generation: number,
    entries: Iterable<readonly [path: string, value: unknown]>,
  ): Promise<void> {
    if (generation < 0) await this.memory.store(digest, outside(generation), entries);
  }

  async forget(digest: string): Promise<void> {
    this.forgotten.set(digest, true);
    await this.memory.forget(digest);
  }

  async handOver(redis: CacheStore): Promise<void> {
    this.memory.clear();
    const digests = [...this.forgotten.keys()];
    this.forgotten.clear();
    for (const digest of digests) await redis.forget(digest);
  }
}
