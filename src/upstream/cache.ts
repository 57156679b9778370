// A short-lived read cache per credential (CACHE_TTL_MS): each upstream call it saves is quota a
// dashboard keeps (120 calls a minute per account). Entries are keyed by a digest of the
// credential and the request path, never shared between credentials, bounded in number (least
// recently used out first), and a write through a credential drops everything cached for it.
import { LRUCache } from 'lru-cache';

export interface ReadCacheOptions {
  /** How long an answer is served from the cache. */
  readonly ttlMs: number;
  /** Entries kept at most, over all credentials. */
  readonly maxEntries: number;
}

/** What one credential has cached, and what it is fetching; gone when both are empty. */
interface Bucket {
  /** Bumped by every write: a read that started before it must not be stored after it. */
  generation: number;
  pending: number;
  readonly keys: Set<string>;
}

interface Entry {
  readonly value: unknown;
}

interface Fetching {
  /** The credential's generation when the fetch started. */
  readonly generation: number;
  readonly promise: Promise<unknown>;
}

export class ReadCache {
  private readonly buckets = new Map<string, Bucket>();
  private readonly entries: LRUCache<string, Entry>;
  private readonly fetching = new Map<string, Fetching>();

  constructor(options: ReadCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      ttl: options.ttlMs,
      dispose: (_entry, key, reason) => {
        // An overwrite keeps the key; anything else (evicted, expired, deleted) lets it go.
        if (reason !== 'set') this.forget(key);
      },
    });
  }

  /** Entries held now (expired ones included until they are touched or evicted). */
  get size(): number {
    return this.entries.size;
  }

  /** Credentials with entries or reads under way: bounded by the entries plus the reads. */
  get credentials(): number {
    return this.buckets.size;
  }

  /**
   * The cached answer for this credential and path, or `fetch()`'s, which is then cached (with
   * the `related` answers it also tells, e.g. each listed tunnel under its own path) unless a
   * write through the same credential happened while it was under way.
   */
  async read<T>(
    credential: string,
    path: string,
    fetch: () => Promise<T>,
    related?: (value: T) => Iterable<readonly [path: string, value: unknown]>,
  ): Promise<T> {
    const key = keyOf(credential, path);
    const hit = this.entries.get(key);
    if (hit) return hit.value as T;
    const bucket = this.bucket(credential);
    const under = this.fetching.get(key);
    if (under?.generation === bucket.generation) return under.promise as Promise<T>;
    if (under) {
      // Started before a write through this credential: its answer may predate the write, and the
      // transport would hand it to an identical call made now. Let it end, then ask again.
      await under.promise.catch(() => undefined);
      return this.read(credential, path, fetch, related);
    }
    const generation = bucket.generation;
    bucket.pending += 1;
    const promise = (async () => {
      try {
        const value = await fetch();
        if (bucket.generation === generation) {
          this.store(bucket, key, value);
          for (const [otherPath, other] of related?.(value) ?? []) {
            this.store(bucket, keyOf(credential, otherPath), other);
          }
        }
        return value;
      } finally {
        bucket.pending -= 1;
        this.fetching.delete(key);
        this.dropIfEmpty(credential, bucket);
      }
    })();
    this.fetching.set(key, { generation, promise });
    return promise;
  }

  /**
   * Runs a write through this credential: everything cached for it is dropped before and after
   * (a failed write may still have landed), and reads under way meanwhile are not stored.
   */
  async write<T>(credential: string, perform: () => Promise<T>): Promise<T> {
    this.invalidate(credential);
    try {
      return await perform();
    } finally {
      this.invalidate(credential);
    }
  }

  /** Drops everything cached for this credential. */
  invalidate(credential: string): void {
    const bucket = this.buckets.get(credential);
    if (!bucket) return;
    bucket.generation += 1;
    for (const key of [...bucket.keys]) this.entries.delete(key);
    this.dropIfEmpty(credential, bucket);
  }

  private bucket(credential: string): Bucket {
    let bucket = this.buckets.get(credential);
    if (!bucket) {
      bucket = { generation: 0, pending: 0, keys: new Set() };
      this.buckets.set(credential, bucket);
    }
    return bucket;
  }

  private store(bucket: Bucket, key: string, value: unknown): void {
    this.entries.set(key, { value });
    // Set after the entry: the LRU may have disposed of it at once (max 0) or evicted another.
    if (this.entries.has(key)) bucket.keys.add(key);
  }

  private forget(key: string): void {
    const credential = key.slice(0, key.indexOf(' '));
    const bucket = this.buckets.get(credential);
    if (!bucket) return;
    bucket.keys.delete(key);
    this.dropIfEmpty(credential, bucket);
  }

  private dropIfEmpty(credential: string, bucket: Bucket): void {
    if (bucket.keys.size === 0 && bucket.pending === 0 && this.buckets.get(credential) === bucket) {
      this.buckets.delete(credential);
    }
  }
}

// Credential digests have no spaces (base64url), so the first space ends the credential part.
const keyOf = (credential: string, path: string): string => `${credential} ${path}`;
