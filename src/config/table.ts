// Every setting of the gateway, grouped by the code that uses it. The types, the defaults, --help, the
// README's configuration table and the validation all derive from this one table.
import {
  boolean,
  type GatewayToken,
  hostNames,
  httpUrl,
  integer,
  keyPrefix,
  oneOf,
  origins,
  type Parser,
  redisUrl,
  text,
  tokens,
} from './parsers';

export interface Option<T> {
  /** The environment variable; the flag is its kebab-case form (PORT -> --port). */
  readonly env: string;
  readonly help: string;
  readonly default: T;
  /** How --help and the README show the default, when the value alone does not say it. */
  readonly defaultText?: string;
  readonly parse: Parser<T>;
}

const option = <T>(o: Option<T>): Option<T> => o;
const unset = <T>(o: Omit<Option<T | undefined>, 'default'>): Option<T | undefined> => ({
  ...o,
  default: undefined,
});

export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'auto' | 'json' | 'pretty';

export const SUPPORTED_API_VERSIONS = ['2'] as const;
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];

export const TABLE = {
  server: {
    port: option({
      env: 'PORT',
      help: 'port the gateway listens on',
      default: 4000,
      parse: integer(0, 65535),
    }),
    host: unset<string>({
      env: 'HOST',
      help: 'interface to listen on (127.0.0.1 for loopback only)',
      defaultText: '0.0.0.0 (127.0.0.1 on the stand-in)',
      parse: text,
    }),
    nodeEnv: option<NodeEnv>({
      env: 'NODE_ENV',
      help: 'environment',
      default: 'development',
      parse: oneOf(NODE_ENVS),
    }),
    shutdownTimeoutMs: option({
      env: 'SHUTDOWN_TIMEOUT_MS',
      help: 'on SIGTERM/SIGINT, how long in-flight operations may finish before connections are cut',
      default: 10_000,
      parse: integer(0, 600_000),
    }),
    headersTimeoutMs: option({
      env: 'SERVER_HEADERS_TIMEOUT_MS',
      help: 'a client that has not sent its request headers within this time gets 408 and is disconnected',
      default: 10_000,
      parse: integer(100, 600_000),
    }),
    requestTimeoutMs: option({
      env: 'SERVER_REQUEST_TIMEOUT_MS',
      help: 'a client that has not sent its whole request (headers and body) within this time gets 408 and is disconnected',
      default: 30_000,
      parse: integer(100, 3_600_000),
    }),
    keepAliveTimeoutMs: option({
      env: 'SERVER_KEEPALIVE_TIMEOUT_MS',
      help: "idle time before a keep-alive client connection is closed; keep it above a load balancer's",
      default: 5_000,
      parse: integer(100, 600_000),
    }),
    maxConnections: option({
      env: 'SERVER_MAX_CONNECTIONS',
      help: 'client connections open at once; beyond it new ones are dropped until one closes',
      default: 1024,
      parse: integer(1, 1_000_000),
    }),
  },
  upstream: {
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
      parse: integer(1, 60_000),
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
      default: 60_000,
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
  },
  limits: {
    operationTimeoutMs: option({
      env: 'OPERATION_TIMEOUT_MS',
      help: 'deadline of a whole GraphQL operation, retries and queueing included, in milliseconds',
      default: 20_000,
      parse: integer(1, 600_000),
    }),
    maxDepth: option({
      env: 'MAX_DEPTH',
      help: 'maximum selection depth',
      default: 15,
      parse: integer(1, 1000),
    }),
    maxAliases: option({
      env: 'MAX_ALIASES',
      help: 'maximum aliases in one operation',
      default: 15,
      parse: integer(0, 10_000),
    }),
    maxTokens: option({
      env: 'MAX_TOKENS',
      help: 'maximum tokens in one document',
      default: 2_000,
      parse: integer(1, 1_000_000),
    }),
    maxDirectives: option({
      env: 'MAX_DIRECTIVES',
      help: 'maximum directives in one operation',
      default: 10,
      parse: integer(0, 10_000),
    }),
    maxCost: option({
      env: 'MAX_COST',
      help: 'maximum static cost of an operation (objects 2, scalars 1, deeper levels weigh more)',
      default: 5_000,
      parse: integer(1, 10_000_000),
    }),
    maxBodyBytes: option({
      env: 'MAX_BODY_BYTES',
      help: 'maximum request body size in bytes (larger: HTTP 413)',
      default: 102_400,
      parse: integer(1, 100_000_000),
    }),
    maxBatch: option({
      env: 'MAX_BATCH',
      help: 'operations in one batched request (a JSON array); 0 turns batching off',
      default: 5,
      parse: integer(0, 100),
    }),
    introspection: option({
      env: 'INTROSPECTION',
      help: 'answer schema introspection (__schema, __type)',
      default: true,
      parse: boolean,
    }),
  },
  access: {
    corsOrigins: unset<readonly string[]>({
      env: 'CORS_ORIGINS',
      help: 'comma-separated browser origins allowed by CORS, or *',
      defaultText: 'any origin in development (not where the gateway lends its key), none otherwise',
      parse: origins,
    }),
    allowedHosts: unset<readonly string[]>({
      env: 'ALLOWED_HOSTS',
      help: "comma-separated Host header names answered besides localhost, 127.0.0.1 and [::1] (a proxy's name), or *",
      defaultText: 'loopback names only when HOST is loopback; any otherwise',
      parse: hostNames,
    }),
    gatewayTokens: option<readonly GatewayToken[]>({
      env: 'GATEWAY_TOKENS',
      help: 'comma-separated bearer tokens clients must send when NGROK_API_KEY is set ("tok" or "tok:read")',
      default: [],
      defaultText: 'none',
      parse: tokens,
    }),
  },
  metrics: {
    maxOperationNames: option({
      env: 'METRICS_MAX_OPERATION_NAMES',
      help: 'distinct operation names given their own metric series (the first to validate); others count as "other"',
      default: 50,
      parse: integer(0, 1000),
    }),
  },
  log: {
    level: option<LogLevel>({
      env: 'LOG_LEVEL',
      help: 'log level',
      default: 'info',
      parse: oneOf(LOG_LEVELS),
    }),
    format: option<LogFormat>({
      env: 'LOG_FORMAT',
      help: 'json, pretty, or auto: pretty in development on a terminal when pino-pretty is installed',
      default: 'auto',
      parse: oneOf<LogFormat>(['auto', 'json', 'pretty']),
    }),
  },
  persisted: {
    file: unset<string>({
      env: 'PERSISTED_OPERATIONS_FILE',
      help: 'JSON manifest of persisted operations ({"id": "document"} or an Apollo manifest)',
      parse: text,
    }),
    only: option({
      env: 'PERSISTED_OPERATIONS_ONLY',
      help: 'refuse every operation that is not in the manifest',
      default: false,
      parse: boolean,
    }),
    apqMaxEntries: option({
      env: 'APQ_MAX_ENTRIES',
      help: 'automatic persisted queries remembered, least recently used dropped first (0: APQ off)',
      default: 1_000,
      parse: integer(0, 100_000),
    }),
  },
  readiness: {
    timeoutMs: option({
      env: 'READINESS_TIMEOUT_MS',
      help: 'deadline of the upstream check behind /readiness in milliseconds',
      default: 2_000,
      parse: integer(1, 60_000),
    }),
    cacheMs: option({
      env: 'READINESS_CACHE_MS',
      help: 'how long a /readiness result is reused: one upstream call per period at most',
      default: 10_000,
      parse: integer(0, 600_000),
    }),
  },
  cache: {
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
  },
  live: {
    pollIntervalMs: option({
      env: 'LIVE_POLL_INTERVAL_MS',
      help: 'tunnelEvents: how often a subscribed account is polled (each poll walks every page of 100 tunnels)',
      default: 5_000,
      parse: integer(100, 3_600_000),
    }),
    pollBudgetPerMin: option({
      env: 'LIVE_POLL_BUDGET_PER_MIN',
      help: "tunnelEvents: upstream calls one account's poller may make per rolling minute; the interval stretches to fit",
      default: 30,
      parse: integer(1, 100_000),
    }),
    idleMs: option({
      env: 'LIVE_IDLE_MS',
      help: "tunnelEvents: how long an account's poller runs on after its last subscriber leaves",
      default: 10_000,
      parse: integer(0, 3_600_000),
    }),
    maxSubscriptionsPerCredential: option({
      env: 'LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL',
      help: 'tunnelEvents: open subscriptions per credential; beyond it RATE_LIMITED',
      default: 100,
      parse: integer(1, 1_000_000),
    }),
    maxSubscriptions: option({
      env: 'LIVE_MAX_SUBSCRIPTIONS',
      help: 'tunnelEvents: open subscriptions in all; beyond it RATE_LIMITED',
      default: 10_000,
      parse: integer(1, 1_000_000),
    }),
    leaseTtlMs: option({
      env: 'LIVE_LEASE_TTL_MS',
      help: 'tunnelEvents with REDIS_URL: how long the lease of the replica polling an account lasts unrenewed (renewed every third of it); after it another replica with subscribers takes over',
      default: 15_000,
      parse: integer(300, 600_000),
    }),
    standinChurn: option({
      env: 'STANDIN_CHURN',
      help: 'the embedded stand-in (no upstream configured) brings a demo tunnel online or offline every 3 s',
      default: false,
      parse: boolean,
    }),
  },
  redis: {
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
      parse: integer(10, 60_000),
    }),
    fallbackReplicas: option({
      env: 'REDIS_FALLBACK_REPLICAS',
      help: 'while Redis is unreachable each replica keeps to UPSTREAM_RATE_LIMIT_PER_MIN divided by this (set it to the replica count)',
      default: 1,
      parse: integer(1, 1_000),
    }),
  },
};

type Table = typeof TABLE;
type ValueOf<O> = O extends Option<infer T> ? T : never;

/** The whole configuration: one read-only section per room of the gateway. */
export type Config = {
  readonly [S in keyof Table]: { readonly [K in keyof Table[S]]: ValueOf<Table[S][K]> };
};

/** Every option with its section and key, in table order (help, README, parsing). */
export const OPTIONS: readonly (Option<unknown> & { section: string; key: string })[] = Object.entries(
  TABLE,
).flatMap(([section, options]) =>
  Object.entries(options as Record<string, Option<unknown>>).map(([key, o]) => ({ ...o, section, key })),
);

/** How a default is shown in --help and the README. */
export const defaultTextOf = (o: Option<unknown>): string =>
  o.defaultText ?? (o.default === undefined ? 'unset' : String(o.default));
