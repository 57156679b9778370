// yoga's parse and validation cache, bounded by the size of what it holds. yoga's default keeps
// 1024 documents (and 1024 parse errors) keyed by their full text whatever their size: 450 unique
// 90 kB documents, with no credential needed, filled a 128 MB heap. Here each cache holds at most
// MAX_CACHED_SOURCE characters of document text, least recently used out first.
import type { DocumentNode } from 'graphql';
import type { YogaServerOptions } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/** Entries per cache, as yoga's default. */
const MAX_ENTRIES = 1024;
/** Characters of document text per cache: a thousand 4 kB documents, or 40 of the largest bodies. */
const MAX_CACHED_SOURCE = 4_000_000;
/** As yoga's default: an hour. */
const TTL_MS = 3_600_000;

const sizedCache = <T extends object>() =>
  new LRUCache<string, T>({
    max: MAX_ENTRIES,
    maxSize: MAX_CACHED_SOURCE,
    // The text is the key; the parsed document grows with it (names are slices of it).
    sizeCalculation: (_value, key) => Math.max(1, key.length),
    ttl: TTL_MS,
  });

/** The `parserAndValidationCache` option of createYoga. */
export function documentCacheOptions(): Pick<YogaServerOptions<object, object>, 'parserAndValidationCache'> {
  return {
    parserAndValidationCache: {
      documentCache: sizedCache<DocumentNode>(),
      errorCache: sizedCache<Error>(),
      validationCache: true,
    },
  };
}
