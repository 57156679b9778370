// The ngrok API and the client in front of it: URL, key, timeouts, retries, pool, breaker, budget.

import { MINUTE_MS } from '../../time';
import { option, unset } from '../option';
import { httpUrl, integer, oneOf, text } from '../parsers';
import { SUPPORTED_API_VERSIONS } from '../values';

export const upstream = {
  url: unset<string>({
    env: 'NGROK_API_URL',
    help: 'base URL of the ngrok REST API; unset with no key: the embedded stand-in',
    defaultText: 'https://api.ngrok.com when a key is set',
    parse: httpUrl,
  }),
  apiKey: unset<string>({
    env: 'NGROK_API_KEY',
    help: 'server-held ngrok API key; unset: each client forwards its own bearer key',
    parse: text,
  }),
  apiVersion: option<string>({
    env: 'NGROK_API_VERSION',
    help: 'value of the Ngrok-Version header',
    default: '2',
    parse: oneOf(SUPPORTED_API_VERSIONS),
  }),
  timeoutMs: option({
    env: 'UPSTREAM_TIMEOUT_MS',
    help: 'deadline of one upstream call in milliseconds',
    default: 10_000,
    parse: integer(1, 600_000),
  }),
  retries: option({
    env: 'UPSTREAM_RETRIES',
    help: 'retries of a failed upstream read (and of a write that never left the gateway)',
    default: 2,
    parse: integer(0, 10),
  }),
  retryBaseMs: option({
    env: 'UPSTREAM_RETRY_BASE_MS',
    help: 'first backoff step in milliseconds; doubled per retry, jittered, at most 2 s',
    default: 100,
    parse: integer(1, MINUTE_MS),
  }),
  connections: option({
    env: 'UPSTREAM_CONNECTIONS',
    help: 'keep-alive sockets to the upstream at most',
    default: 32,
    parse: integer(1, 1024),
  }),
  keepAliveMs: option({
    env: 'UPSTREAM_KEEPALIVE_MS',
    help: "idle time before a pooled upstream socket is closed; keep it below the upstream's",
    default: 4_000,
    parse: integer(100, 600_000),
  }),
  maxConcurrency: option({
    env: 'UPSTREAM_MAX_CONCURRENCY',
    help: 'simultaneous upstream requests per credential',
    default: 8,
    parse: integer(1, 1024),
  }),
  queueLimit: option({
    env: 'UPSTREAM_QUEUE_LIMIT',
    help: 'upstream calls per credential that may wait for a slot; beyond it RATE_LIMITED at once',
    default: 100,
    parse: integer(0, 100_000),
  }),
  breakerFailureThreshold: option({
    env: 'BREAKER_FAILURE_THRESHOLD',
    help: 'consecutive upstream failures that open the circuit breaker (0: no breaker)',
    default: 5,
    parse: integer(0, 1000),
  }),
  breakerCooldownMs: option({
    env: 'BREAKER_COOLDOWN_MS',
    help: 'how long an open circuit answers UPSTREAM_UNAVAILABLE at once before probing',
    default: 10_000,
    parse: integer(1, 600_000),
  }),
  maxBodyBytes: option({
    env: 'UPSTREAM_MAX_BODY_BYTES',
    help: 'largest upstream answer body read, in bytes; a larger one is dropped as UPSTREAM_BAD_RESPONSE',
    default: 4 * 1024 * 1024,
    parse: integer(1024, 1_073_741_824),
  }),
  refusedCredentialTtlMs: option({
    env: 'REFUSED_CREDENTIAL_TTL_MS',
    help: 'how long a credential the upstream refused is answered UNAUTHENTICATED without a call (0: off)',
    default: MINUTE_MS,
    parse: integer(0, 3_600_000),
  }),
  refusedCredentialMaxEntries: option({
    env: 'REFUSED_CREDENTIAL_MAX_ENTRIES',
    help: 'refused credentials remembered at most (digests, least recently used out first)',
    default: 10_000,
    parse: integer(1, 1_000_000),
  }),
  rateLimitPerMin: option({
    env: 'UPSTREAM_RATE_LIMIT_PER_MIN',
    help: "the gateway's own budget of upstream calls per credential in any rolling 60 s, across replicas sharing REDIS_URL (0: off)",
    default: 120,
    parse: integer(0, 10_000),
  }),
};
