// A short-lived read cache per credential (CACHE_TTL_MS): each upstream call it saves is quota a
// dashboard keeps (120 calls a minute per account). Answers live in a CacheStore (shared-state):
// in this process, or in Redis where every replica reads what one of them fetched. Keys hold a
// digest of the credential and the request path, never the credential; a write through a
// credential drops everything cached for it, on every replica sharing the store.
import { type CacheLookup, type CacheStore, unexpiringCacheStore } from '../shared-state';
import { InFlight } from './stages/coalesce';

interface Fetching {
  /** The credential's generation when the fetch started. */
  readonly generation: number;
  readonly promise: Promise<unknown>;
}

export class ReadCache {
  /** Reads under way in this process, joined by identical reads: bounded by the reads in flight. */
  private readonly fetching = new InFlight<Fetching>();

  constructor(private readonly store: CacheStore) {}

  /** Credentials with reads under way in this process. */
  get credentials(): number {
    return this.fetching.credentials;
  }

  /**
   * The cached answer for this credential and path, or `fetch()`'s, which is then cached (with
   * the `related` answers it also tells, e.g. each listed tunnel under its own path) unless a
   * write through the same credential happened while it was under way. `hit` is told when the
   * answer cost this read no fetch of its own (stored, or another read's fetch joined and answered). A stored
   * answer is handed over as it was stored, in one step: no async frame, no fetch closure run.
   */
  read<T>(
    digest: string,
    path: string,
    fetch: () => Promise<T>,
    related?: (value: T) => Iterable<readonly [path: string, value: unknown]>,
    hit?: () => void,
  ): Promise<T> {
    const answer = (found: CacheLookup): T | Promise<T> => {
      if (!found.hit) return this.fetchOnce(digest, path, found.generation, fetch, related, hit);
      hit?.();
      return found.value as T;
    };
    const found = this.store.lookup(digest, path);
    return found instanceof Promise ? found.then(answer) : Promise.resolve(answer(found));
  }

  private async fetchOnce<T>(
    digest: string,
    path: string,
    generation: number,
    fetch: () => Promise<T>,
    related: ((value: T) => Iterable<readonly [path: string, value: unknown]>) | undefined,
    hit: (() => void) | undefined,
  ): Promise<T> {
    const under = this.fetching.get(digest, path);
    if (under?.generation === generation) {
      if (!hit) return under.promise as Promise<T>;
      // Told once the joined fetch answered: a failed one saved this read nothing.
      return (under.promise as Promise<T>).then((value) => {
        hit();
        return value;
      });
    }
    if (under) {
      // Started before a write through this credential: its answer may predate the write, and the
      // transport would hand it to an identical call made now. Let it end, then ask again.
      await under.promise.catch(() => undefined);
      return this.read(digest, path, fetch, related, hit);
    }
    const promise = (async () => {
      const value = await fetch();
      // The store drops these when the credential wrote since `generation` (here or elsewhere).
      await this.store.store(digest, generation, [[path, value], ...(related?.(value) ?? [])]);
      return value;
    })();
    this.fetching.hold(digest, path, { generation, promise });
    return promise;
  }

  /**
   * Runs a write through this credential: everything cached for it is dropped before and after
   * (a failed write may still have landed), and reads under way meanwhile are not stored.
   */
  async write<T>(digest: string, perform: () => Promise<T>): Promise<T> {
    await this.invalidate(digest);
    try {
      return await perform();
    } finally {
      await this.invalidate(digest);
    }
  }

  /** Drops everything cached for this credential. */
  invalidate(digest: string): Promise<void> {
    return this.store.forget(digest);
  }
}

/** Answers one observation's joins keep at most: its lists and pages, and each item they listed. */
const OBSERVATION_ENTRIES = 2_000;

/**
 * A read cache of one live observation's joins, its own and without expiry: a page another
 * subscriber of the same observation already read (a session's endpoints) costs no second call,
 * as its Ref.node joins cost none (their loaders remember them).
 */
export const observationCache = (): ReadCache => new ReadCache(unexpiringCacheStore(OBSERVATION_ENTRIES));
