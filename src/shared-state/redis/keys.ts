// Names of everything the gateway keeps in Redis. Each carries the key prefix (REDIS_KEY_PREFIX) and
// a digest of the credential, never the credential itself (callers pass keyDigest(apiKey)).

export interface KeyNames {
  /** Sorted set of every call in the rolling window (score: epoch ms). */
  budget(digest: string): string;
  /** Sorted set of the live poller's calls in the same window. */
  pollBudget(digest: string): string;
  /** Sorted sets of client reads' and writes' calls in the same window (holds are in neither). */
  readBudget(digest: string): string;
  writeBudget(digest: string): string;
  /** Until when (epoch ms) the upstream asked this credential to pause after a 429. */
  pause(digest: string): string;
  /** Counter bumped by every write: cached reads live under the generation they were read in. */
  cacheGeneration(digest: string): string;
  /** Start of one cached read's key; the generation and the request path follow. */
  cacheEntries(digest: string): string;
  lease(name: string): string;
  snapshot(digest: string): string;
  /** A live snapshot's hash (version, head, one field per item), named by list and credential digest. */
  liveSnapshot(name: string): string;
  /** The list of a live snapshot's recent changes, oldest first, each from one version to the next. */
  liveChanges(name: string): string;
  /** Pub/sub channel of a topic (yoga's createPubSub topic names). */
  channel(topic: string): string;
}

const DEFAULT_KEY_PREFIX = 'ngw:';

export function keyNames(prefix: string = DEFAULT_KEY_PREFIX): KeyNames {
  return {
    budget: (digest) => `${prefix}budget:${digest}`,
    pollBudget: (digest) => `${prefix}budget-poll:${digest}`,
    readBudget: (digest) => `${prefix}budget-read:${digest}`,
    writeBudget: (digest) => `${prefix}budget-write:${digest}`,
    pause: (digest) => `${prefix}pause:${digest}`,
    cacheGeneration: (digest) => `${prefix}cache-gen:${digest}`,
    cacheEntries: (digest) => `${prefix}cache:${digest}:`,
    lease: (name) => `${prefix}lease:${name}`,
    snapshot: (digest) => `${prefix}snapshot:${digest}`,
    liveSnapshot: (name) => `${prefix}live-snapshot:${name}`,
    liveChanges: (name) => `${prefix}live-changes:${name}`,
    channel: (topic) => `${prefix}events:${topic}`,
  };
}
