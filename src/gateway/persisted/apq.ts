// Automatic persisted queries (Apollo's APQ): a client sends only extensions.persistedQuery.sha256Hash;
// on PersistedQueryNotFound it sends the query with the hash once, and the gateway remembers it.
// The store is an LRU bounded in entries (APQ_MAX_ENTRIES) and in bytes, so clients cannot grow it.
import { createHash } from 'node:crypto';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/** Total size of the remembered query texts, whatever the entry count. */
const APQ_MAX_BYTES = 4 * 1024 * 1024;

export interface ApqStore {
  get(hash: string): string | undefined;
  /** Remembers a query under its hash; false when the hash is not the query's sha256. */
  register(hash: string, query: string): boolean;
  readonly size: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function createApqStore(maxEntries: number): ApqStore {
  const cache = new LRUCache<string, string>({
    max: maxEntries,
    maxSize: APQ_MAX_BYTES,
    sizeCalculation: (query) => Math.max(1, Buffer.byteLength(query)),
  });
  return {
    get: (hash) => cache.get(hash.toLowerCase()),
    register(hash, query) {
      if (sha256(query) !== hash.toLowerCase()) return false;
      cache.set(hash.toLowerCase(), query);
      return true;
    },
    get size() {
      return cache.size;
    },
  };
}

/** Apollo's `extensions.persistedQuery` (version 1) hash, or undefined. */
export function apqHashOf(extensions: unknown): string | undefined {
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null)
    ?.persistedQuery;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string'
    ? persisted.sha256Hash
    : undefined;
}

/** The refusal of a query whose hash is not its sha256 (Apollo Server's message and code). */
export const apqHashMismatch = () =>
  createGraphQLError('provided sha does not match query', {
    extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH', http: { status: 400 } },
  });

/**
 * Registers a query sent with its hash, after checking the hash; a wrong hash is refused (Apollo
 * Server's message and code). Must come before the persisted-operations plugin, which then runs the
 * query as an ordinary one and, for a hash alone, finds it in the store.
 */
export function useApqRegistration(store: ApqStore): Plugin {
  return {
    onParams({ params }) {
      const hash = apqHashOf(params.extensions);
      if (hash === undefined || typeof params.query !== 'string') return;
      if (!store.register(hash, params.query)) throw apqHashMismatch();
    },
  };
}
