// State kept between requests: the read cache, live tunnel events, and Redis shared by replicas.

import { MINUTE_MS } from '../../time';
import { option, unset } from '../option';
import { boolean, integer, keyPrefix, redisUrl } from '../parsers';

export const cache = {
  ttlMs: option({
    env: 'CACHE_TTL_MS',
    help: "how long a read is served from the per-credential cache (0: off); that credential's writes clear it",
    default: 0,
    parse: integer(0, 600_000),
  }),
  maxEntries: option({
    env: 'CACHE_MAX_ENTRIES',
    help: 'reads the cache holds at most, over all credentials (least recently used out first)',
    default: 10_000,
    parse: integer(1, 1_000_000),
  }),
};

export const live = {
  pollIntervalMs: option({
    env: 'LIVE_POLL_INTERVAL_MS',
    help: 'live events: how often a subscribed account is polled (each poll walks every page of 100 of each subscribed list: tunnels, endpoints, tunnel sessions)',
    default: 5_000,
    parse: integer(100, 3_600_000),
  }),
  pollBudgetPerMin: option({
    env: 'LIVE_POLL_BUDGET_PER_MIN',
    help: "live events: upstream calls one account's poller may make per rolling minute; the interval stretches to fit",
    default: 30,
    parse: integer(1, 100_000),
  }),
  idleMs: option({
    env: 'LIVE_IDLE_MS',
    help: "live events: how long an account's poller runs on after its last subscriber leaves",
    default: 10_000,
    parse: integer(0, 3_600_000),
  }),
  maxSubscriptionsPerCredential: option({
    env: 'LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL',
    help: 'live events: open subscriptions (of every kind) per credential; beyond it RATE_LIMITED',
    default: 100,
    parse: integer(1, 1_000_000),
  }),
  maxSubscriptions: option({
    env: 'LIVE_MAX_SUBSCRIPTIONS',
    help: 'live events: open subscriptions (of every kind) in all; beyond it RATE_LIMITED',
    default: 10_000,
    parse: integer(1, 1_000_000),
  }),
  maxSubscriberBufferBytes: option({
    env: 'LIVE_MAX_SUBSCRIBER_BUFFER_BYTES',
    help: 'live events: bytes of events one subscriber may leave unread (queued, plus unsent in its socket); past it the subscriber is dropped',
    default: 4 * 1024 * 1024,
    defaultText: '4194304 (4 MiB)',
    parse: integer(1024, 1_073_741_824),
  }),
  maxSubscriberStallMs: option({
    env: 'LIVE_MAX_SUBSCRIBER_STALL_MS',
    help: 'live events: how long a subscriber may read nothing while events wait for it (its current list included); past it the subscriber is dropped',
    default: 30_000,
    parse: integer(100, 3_600_000),
  }),
  maxSnapshotBytes: option({
    env: 'LIVE_MAX_SNAPSHOT_BYTES',
    help: "live events: bytes (as JSON) one account's list may take in the snapshot all its subscribers share; past it that list's streams end with LIVE_SNAPSHOT_TOO_LARGE",
    default: 32 * 1024 * 1024,
    defaultText: '33554432 (32 MiB)',
    parse: integer(1024, 60 * 1024 * 1024),
  }),
  leaseTtlMs: option({
    env: 'LIVE_LEASE_TTL_MS',
    help: 'live events with REDIS_URL: how long the lease of the replica polling an account lasts unrenewed (renewed every third of it); after it another replica with subscribers takes over',
    default: 15_000,
    parse: integer(300, 600_000),
  }),
  standinChurn: option({
    env: 'STANDIN_CHURN',
    help: 'the embedded stand-in (no upstream configured) brings a demo tunnel online or offline once per LIVE_POLL_INTERVAL_MS, so each poll brings one event',
    default: false,
    parse: boolean,
  }),
  edgesWritable: option({
    env: 'EDGES_WRITABLE',
    help: 'the embedded stand-in accepts backend module writes (a demo of the mutations); by default it refuses them with ERR_NGROK_7196 (FORBIDDEN), as the real API does since Edges were shut down on 2025-12-31 (npm run sandbox: --edges-writable)',
    default: false,
    parse: boolean,
  }),
};

export const redis = {
  url: unset<string>({
    env: 'REDIS_URL',
    help: 'Redis holding the state replicas share (budget, pauses, cache, live-event lease, snapshots, events); unset: per process',
    parse: redisUrl,
  }),
  keyPrefix: option({
    env: 'REDIS_KEY_PREFIX',
    help: 'prefix of every Redis key and channel the gateway uses',
    default: 'ngw:',
    parse: keyPrefix,
  }),
  timeoutMs: option({
    env: 'REDIS_TIMEOUT_MS',
    help: 'connect and command timeout for Redis; past it a call uses per-process state',
    default: 1_000,
    parse: integer(10, MINUTE_MS),
  }),
  fallbackReplicas: option({
    env: 'REDIS_FALLBACK_REPLICAS',
    help: 'while Redis is unreachable each replica keeps to UPSTREAM_RATE_LIMIT_PER_MIN divided by this (set it to the replica count)',
    default: 1,
    parse: integer(1, 1_000),
  }),
};
