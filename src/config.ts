// The one place that reads the environment and the command line. Everything below receives the
// frozen Config this module builds; a bad value stops start-up with one line naming the variable.

export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type TokenScope = 'read' | 'write';
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface GatewayToken {
  readonly token: string;
  readonly scopes: readonly TokenScope[];
}

export interface Config {
  readonly port: number;
  /** Undefined: 127.0.0.1 on the embedded stand-in, 0.0.0.0 otherwise. */
  readonly host: string | undefined;
  /** Undefined when neither NGROK_API_URL nor NGROK_API_KEY is set: the embedded stand-in serves. */
  readonly ngrokApiUrl: string | undefined;
  readonly ngrokApiKey: string | undefined;
  readonly ngrokApiVersion: string;
  readonly upstreamTimeoutMs: number;
  /** Reliability (src/upstream): deadlines, retries, pool, per-credential cap, circuit breaker. */
  readonly operationTimeoutMs: number;
  readonly upstreamRetries: number;
  readonly upstreamRetryBaseMs: number;
  readonly upstreamConnections: number;
  readonly upstreamKeepAliveMs: number;
  readonly upstreamMaxConcurrency: number;
  readonly upstreamQueueLimit: number;
  readonly breakerFailureThreshold: number;
  readonly breakerCooldownMs: number;
  /** Limits on what a request may ask (src/gateway/security.ts). */
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxTokens: number;
  readonly maxDirectives: number;
  readonly maxCost: number;
  readonly maxBodyBytes: number;
  /** Operations in one batched request; 0 turns batching off. */
  readonly maxBatch: number;
  readonly introspection: boolean;
  /** Allowed browser origins; undefined: any origin in development, none elsewhere. */
  readonly corsOrigins: readonly string[] | undefined;
  readonly shutdownTimeoutMs: number;
  readonly gatewayTokens: readonly GatewayToken[];
  readonly logLevel: LogLevel;
  readonly nodeEnv: NodeEnv;
  /** Operability (src/log.ts, src/gateway/health.ts, src/gateway/persisted.ts). */
  readonly logFormat: LogFormat;
  readonly persistedOperationsFile: string | undefined;
  readonly persistedOperationsOnly: boolean;
  /** Automatic persisted queries remembered (LRU); 0 turns APQ off. */
  readonly apqMaxEntries: number;
  readonly readinessTimeoutMs: number;
  readonly readinessCacheMs: number;
  /** Per-credential read cache: 0 turns it off. */
  readonly cacheTtlMs: number;
  readonly cacheMaxEntries: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Parser<T> = (raw: string, name: string) => T;

interface Option<K extends keyof Config> {
  readonly key: K;
  readonly env: string;
  readonly help: string;
  /** Shown in --help and the README; `undefined` means unset by default. */
  readonly defaultText?: string;
  readonly parse: Parser<Config[K]>;
}

const SUPPORTED_API_VERSIONS = ['2'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];

const fail = (name: string, why: string): never => {
  throw new ConfigError(`${name}: ${why}`);
};

export const integer =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    if (!/^\d+$/.test(raw.trim())) fail(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
    const n = Number(raw.trim());
    if (n < min || n > max) fail(name, `expected a whole number from ${min} to ${max}, got ${n}`);
    return n;
  };

export const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (raw, name) =>
    values.includes(raw.trim() as T)
      ? (raw.trim() as T)
      : fail(name, `expected one of ${values.join(', ')}, got "${raw}"`);

const text: Parser<string> = (raw, name) =>
  raw.trim() === '' ? fail(name, 'must not be empty') : raw.trim();

const httpUrl: Parser<string> = (raw, name) => {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail(name, `not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(name, 'must be an http or https URL');
  if (url.search || url.hash || url.username || url.password) {
    fail(name, 'must be a base URL without credentials, query or fragment');
  }
  return url.href.replace(/\/+$/, '');
};

const boolean: Parser<boolean> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return fail(name, `expected true or false, got "${raw}"`);
};

/** Comma-separated origins such as https://app.example.com, or "*" for any. */
const origins: Parser<readonly string[]> = (raw, name) =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      if (entry === '*') return entry;
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      if (
        !url ||
        (url.protocol !== 'http:' && url.protocol !== 'https:') ||
        url.origin !== entry.replace(/\/$/, '')
      ) {
        fail(
          name,
          `expected origins like https://app.example.com (scheme, host, optional port), got "${entry}"`,
        );
      }
      return url?.origin ?? entry;
    });

const tokens: Parser<readonly GatewayToken[]> = (raw, name) =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      // "token" has every scope; "token:read" or "token:read+write" narrow it.
      const [token = '', scopeText] = entry.split(':');
      if (token.length < 16) fail(name, 'each token must have at least 16 characters');
      const scopes = scopeText === undefined ? ['read', 'write'] : scopeText.split('+');
      for (const s of scopes) if (s !== 'read' && s !== 'write') fail(name, `unknown scope "${s}"`);
      return { token, scopes: scopes as TokenScope[] };
    });

export const OPTIONS: readonly Option<keyof Config>[] = [
  {
    key: 'port',
    env: 'PORT',
    help: 'port the gateway listens on',
    defaultText: '4000',
    parse: integer(0, 65535),
  },
  {
    key: 'host',
    env: 'HOST',
    help: 'interface to listen on (127.0.0.1 for loopback only)',
    defaultText: '0.0.0.0 (127.0.0.1 on the stand-in)',
    parse: text,
  },
  {
    key: 'ngrokApiUrl',
    env: 'NGROK_API_URL',
    help: 'base URL of the ngrok REST API; unset with no key: the embedded stand-in',
    defaultText: 'https://api.ngrok.com when a key is set',
    parse: httpUrl,
  },
  {
    key: 'ngrokApiKey',
    env: 'NGROK_API_KEY',
    help: 'server-held ngrok API key; unset: each client forwards its own bearer key',
    parse: text,
  },
  {
    key: 'ngrokApiVersion',
    env: 'NGROK_API_VERSION',
    help: 'value of the Ngrok-Version header',
    defaultText: '2',
    parse: oneOf(SUPPORTED_API_VERSIONS),
  },
  {
    key: 'upstreamTimeoutMs',
    env: 'UPSTREAM_TIMEOUT_MS',
    help: 'deadline of one upstream call in milliseconds',
    defaultText: '10000',
    parse: integer(1, 600_000),
  },
  {
    key: 'operationTimeoutMs',
    env: 'OPERATION_TIMEOUT_MS',
    help: 'deadline of a whole GraphQL operation, retries and queueing included, in milliseconds',
    defaultText: '20000',
    parse: integer(1, 600_000),
  },
  {
    key: 'upstreamRetries',
    env: 'UPSTREAM_RETRIES',
    help: 'retries of a failed upstream read (and of a write that never left the gateway)',
    defaultText: '2',
    parse: integer(0, 10),
  },
  {
    key: 'upstreamRetryBaseMs',
    env: 'UPSTREAM_RETRY_BASE_MS',
    help: 'first backoff step in milliseconds; doubled per retry, jittered, at most 2 s',
    defaultText: '100',
    parse: integer(1, 60_000),
  },
  {
    key: 'upstreamConnections',
    env: 'UPSTREAM_CONNECTIONS',
    help: 'keep-alive sockets to the upstream at most',
    defaultText: '32',
    parse: integer(1, 1024),
  },
  {
    key: 'upstreamKeepAliveMs',
    env: 'UPSTREAM_KEEPALIVE_MS',
    help: "idle time before a pooled upstream socket is closed; keep it below the upstream's",
    defaultText: '4000',
    parse: integer(100, 600_000),
  },
  {
    key: 'upstreamMaxConcurrency',
    env: 'UPSTREAM_MAX_CONCURRENCY',
    help: 'simultaneous upstream requests per credential',
    defaultText: '8',
    parse: integer(1, 1024),
  },
  {
    key: 'upstreamQueueLimit',
    env: 'UPSTREAM_QUEUE_LIMIT',
    help: 'upstream calls per credential that may wait for a slot; beyond it RATE_LIMITED at once',
    defaultText: '100',
    parse: integer(0, 100_000),
  },
  {
    key: 'breakerFailureThreshold',
    env: 'BREAKER_FAILURE_THRESHOLD',
    help: 'consecutive upstream failures that open the circuit breaker (0: no breaker)',
    defaultText: '5',
    parse: integer(0, 1000),
  },
  {
    key: 'breakerCooldownMs',
    env: 'BREAKER_COOLDOWN_MS',
    help: 'how long an open circuit answers UPSTREAM_UNAVAILABLE at once before probing',
    defaultText: '10000',
    parse: integer(1, 600_000),
  },
  {
    key: 'maxDepth',
    env: 'MAX_DEPTH',
    help: 'maximum selection depth',
    defaultText: '15',
    parse: integer(1, 1000),
  },
  {
    key: 'maxAliases',
    env: 'MAX_ALIASES',
    help: 'maximum aliases in one operation',
    defaultText: '15',
    parse: integer(0, 10_000),
  },
  {
    key: 'maxTokens',
    env: 'MAX_TOKENS',
    help: 'maximum tokens in one document',
    defaultText: '2000',
    parse: integer(1, 1_000_000),
  },
  {
    key: 'maxDirectives',
    env: 'MAX_DIRECTIVES',
    help: 'maximum directives in one operation',
    defaultText: '10',
    parse: integer(0, 10_000),
  },
  {
    key: 'maxCost',
    env: 'MAX_COST',
    help: 'maximum static cost of an operation (objects 2, scalars 1, deeper levels weigh more)',
    defaultText: '5000',
    parse: integer(1, 10_000_000),
  },
  {
    key: 'maxBodyBytes',
    env: 'MAX_BODY_BYTES',
    help: 'maximum request body size in bytes (larger: HTTP 413)',
    defaultText: '102400',
    parse: integer(1, 100_000_000),
  },
  {
    key: 'maxBatch',
    env: 'MAX_BATCH',
    help: 'operations in one batched request (a JSON array); 0 turns batching off',
    defaultText: '5',
    parse: integer(0, 100),
  },
  {
    key: 'introspection',
    env: 'INTROSPECTION',
    help: 'answer schema introspection (__schema, __type)',
    defaultText: 'true',
    parse: boolean,
  },
  {
    key: 'corsOrigins',
    env: 'CORS_ORIGINS',
    help: 'comma-separated browser origins allowed by CORS, or *',
    defaultText: 'any origin in development, none otherwise',
    parse: origins,
  },
  {
    key: 'shutdownTimeoutMs',
    env: 'SHUTDOWN_TIMEOUT_MS',
    help: 'on SIGTERM/SIGINT, how long in-flight operations may finish before connections are cut',
    defaultText: '10000',
    parse: integer(0, 600_000),
  },
  {
    key: 'gatewayTokens',
    env: 'GATEWAY_TOKENS',
    help: 'comma-separated bearer tokens clients must send when NGROK_API_KEY is set ("tok" or "tok:read")',
    parse: tokens,
  },
  { key: 'logLevel', env: 'LOG_LEVEL', help: 'log level', defaultText: 'info', parse: oneOf(LOG_LEVELS) },
  {
    key: 'nodeEnv',
    env: 'NODE_ENV',
    help: 'environment',
    defaultText: 'development',
    parse: oneOf(NODE_ENVS),
  },
  {
    key: 'logFormat',
    env: 'LOG_FORMAT',
    help: 'json, pretty, or auto: pretty in development on a terminal when pino-pretty is installed',
    defaultText: 'auto',
    parse: oneOf<LogFormat>(['auto', 'json', 'pretty']),
  },
  {
    key: 'persistedOperationsFile',
    env: 'PERSISTED_OPERATIONS_FILE',
    help: 'JSON manifest of persisted operations ({"id": "document"} or an Apollo manifest)',
    parse: text,
  },
  {
    key: 'persistedOperationsOnly',
    env: 'PERSISTED_OPERATIONS_ONLY',
    help: 'refuse every operation that is not in the manifest',
    defaultText: 'false',
    parse: boolean,
  },
  {
    key: 'apqMaxEntries',
    env: 'APQ_MAX_ENTRIES',
    help: 'automatic persisted queries remembered, least recently used dropped first (0: APQ off)',
    defaultText: '1000',
    parse: integer(0, 100_000),
  },
  {
    key: 'readinessTimeoutMs',
    env: 'READINESS_TIMEOUT_MS',
    help: 'deadline of the upstream check behind /readiness in milliseconds',
    defaultText: '2000',
    parse: integer(1, 60_000),
  },
  {
    key: 'readinessCacheMs',
    env: 'READINESS_CACHE_MS',
    help: 'how long a /readiness result is reused: one upstream call per period at most',
    defaultText: '10000',
    parse: integer(0, 600_000),
  },
  {
    key: 'cacheTtlMs',
    env: 'CACHE_TTL_MS',
    help: "how long a read is served from the per-credential cache (0: off); that credential's writes clear it",
    defaultText: '0',
    parse: integer(0, 600_000),
  },
  {
    key: 'cacheMaxEntries',
    env: 'CACHE_MAX_ENTRIES',
    help: 'reads the cache holds at most, over all credentials (least recently used out first)',
    defaultText: '10000',
    parse: integer(1, 1_000_000),
  },
];

export const flagOf = (env: string): string => `--${env.toLowerCase().replaceAll('_', '-')}`;

export const DEFAULTS: Config = {
  port: 4000,
  host: undefined,
  ngrokApiUrl: undefined,
  ngrokApiKey: undefined,
  ngrokApiVersion: '2',
  upstreamTimeoutMs: 10_000,
  operationTimeoutMs: 20_000,
  upstreamRetries: 2,
  upstreamRetryBaseMs: 100,
  upstreamConnections: 32,
  upstreamKeepAliveMs: 4_000,
  upstreamMaxConcurrency: 8,
  upstreamQueueLimit: 100,
  breakerFailureThreshold: 5,
  breakerCooldownMs: 10_000,
  maxDepth: 15,
  maxAliases: 15,
  maxTokens: 2_000,
  maxDirectives: 10,
  maxCost: 5_000,
  maxBodyBytes: 102_400,
  maxBatch: 5,
  introspection: true,
  corsOrigins: undefined,
  shutdownTimeoutMs: 10_000,
  gatewayTokens: [],
  logLevel: 'info',
  nodeEnv: 'development',
  logFormat: 'auto',
  persistedOperationsFile: undefined,
  persistedOperationsOnly: false,
  apqMaxEntries: 1_000,
  readinessTimeoutMs: 2_000,
  readinessCacheMs: 10_000,
  cacheTtlMs: 0,
  cacheMaxEntries: 10_000,
};

/** Reads `--flag value` / `--flag=value` pairs; unknown flags are an error. */
function parseArgv(argv: readonly string[]): Map<string, string> {
  const byFlag = new Map(OPTIONS.map((o) => [flagOf(o.env), o.env]));
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const env = byFlag.get(flag);
    if (!env) throw new ConfigError(`unknown argument "${flag}" (see --help)`);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new ConfigError(`${flag}: needs a value`);
    values.set(env, value);
  }
  return values;
}

/**
 * Builds the config from the environment and flags (flags win). Throws ConfigError with one line.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
): Config {
  const flags = parseArgv(argv);
  const config: Record<string, unknown> = { ...DEFAULTS };
  for (const option of OPTIONS) {
    const raw = flags.get(option.env) ?? env[option.env];
    if (raw === undefined || (raw === '' && !flags.has(option.env))) continue;
    const name = flags.has(option.env) ? flagOf(option.env) : option.env;
    config[option.key] = option.parse(raw, name);
  }
  const result = config as unknown as Config;
  if (result.ngrokApiKey !== undefined && result.ngrokApiUrl === undefined) {
    config.ngrokApiUrl = 'https://api.ngrok.com';
  }
  if (result.persistedOperationsOnly && result.persistedOperationsFile === undefined) {
    throw new ConfigError(
      'PERSISTED_OPERATIONS_ONLY: needs PERSISTED_OPERATIONS_FILE (the allowed operations)',
    );
  }
  return Object.freeze(config) as unknown as Config;
}

/** True when the listening address accepts connections from this machine only. */
export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The --help text, built from the same table the parser reads. */
export function helpText(): string {
  const flagWidth = Math.max(...OPTIONS.map((o) => `${flagOf(o.env)} <value>`.length));
  const envWidth = Math.max(...OPTIONS.map((o) => o.env.length));
  const rows = OPTIONS.map(
    (o) =>
      `  ${`${flagOf(o.env)} <value>`.padEnd(flagWidth)} ${o.env.padEnd(envWidth)} ${o.help}${o.defaultText ? ` (default: ${o.defaultText})` : ''}`,
  );
  return [
    'Usage: npm start -- [flags]   (every flag also reads from its environment variable)',
    'Precedence: flags, then the environment, then a .env file in the working directory, then defaults.',
    '',
    ...rows,
    `${'  --help'.padEnd(flagWidth + 2)} ${''.padEnd(envWidth)} this text`,
  ].join('\n');
}
