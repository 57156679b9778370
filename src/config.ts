// The one place that reads the environment and the command line. Everything below receives the
// frozen Config this module builds; a bad value stops start-up with one line naming the variable.

export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type TokenScope = 'read' | 'write';

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
  readonly gatewayTokens: readonly GatewayToken[];
  readonly logLevel: LogLevel;
  readonly nodeEnv: NodeEnv;
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
];

export const flagOf = (env: string): string => `--${env.toLowerCase().replaceAll('_', '-')}`;

export const DEFAULTS: Config = {
  port: 4000,
  host: undefined,
  ngrokApiUrl: undefined,
  ngrokApiKey: undefined,
  ngrokApiVersion: '2',
  upstreamTimeoutMs: 10_000,
  gatewayTokens: [],
  logLevel: 'info',
  nodeEnv: 'development',
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
  return Object.freeze(config) as unknown as Config;
}

/** True when the listening address accepts connections from this machine only. */
export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The --help text, built from the same table the parser reads. */
export function helpText(): string {
  const rows = OPTIONS.map(
    (o) =>
      `  ${`${flagOf(o.env)} <value>`.padEnd(30)} ${o.env.padEnd(20)} ${o.help}${o.defaultText ? ` (default: ${o.defaultText})` : ''}`,
  );
  return [
    'Usage: npm start -- [flags]   (every flag also reads from its environment variable)',
    '',
    ...rows,
    '  --help'.padEnd(32) + ' this text',
  ].join('\n');
}
