// The one place that reads the environment and the command line. Everything below receives the
// frozen Config built here (one section per room, see table.ts); a bad value stops start-up with one
// line naming the variable.
import { ConfigError } from './parsers';
import { type Config, defaultTextOf, OPTIONS } from './table';

export const flagOf = (env: string): string => `--${env.toLowerCase().replaceAll('_', '-')}`;

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

/** Settings that depend on one another, checked once every value is read. */
function settle(config: Config): Config {
  const upstream =
    config.upstream.apiKey !== undefined && config.upstream.url === undefined
      ? { ...config.upstream, url: 'https://api.ngrok.com' }
      : config.upstream;
  if (config.persisted.only && config.persisted.file === undefined) {
    throw new ConfigError(
      'PERSISTED_OPERATIONS_ONLY: needs PERSISTED_OPERATIONS_FILE (the allowed operations)',
    );
  }
  if (config.server.headersTimeoutMs > config.server.requestTimeoutMs) {
    throw new ConfigError(
      'SERVER_HEADERS_TIMEOUT_MS: must not exceed SERVER_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  return { ...config, upstream };
}

/** Freezes every section and the whole. */
function frozen(config: Config): Config {
  for (const section of Object.values(config)) Object.freeze(section);
  return Object.freeze(config);
}

/** Builds the config from the environment and flags (flags win). Throws ConfigError with one line. */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
): Config {
  const flags = parseArgv(argv);
  const sections: Record<string, Record<string, unknown>> = {};
  for (const option of OPTIONS) {
    const raw = flags.get(option.env) ?? env[option.env];
    const given = raw !== undefined && (raw !== '' || flags.has(option.env));
    const name = flags.has(option.env) ? flagOf(option.env) : option.env;
    sections[option.section] ??= {};
    (sections[option.section] as Record<string, unknown>)[option.key] = given
      ? option.parse(raw, name)
      : option.default;
  }
  // Every section and key of TABLE was filled above, each by its own option's parser.
  return frozen(settle(sections as Config));
}

/** @internal test seam: the defaults alone (tests and tools). */
export const defaultConfig = (): Config => loadConfig({});

/** The address the gateway listens on: HOST, or every interface (main.ts sets 127.0.0.1 for the stand-in). */
export const listenHost = (server: Pick<Config['server'], 'host'>): string => server.host ?? '0.0.0.0';

/** True when the listening address accepts connections from this machine only. */
export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The --help text, built from the same table the parser reads. */
export function helpText(): string {
  const flagWidth = Math.max(...OPTIONS.map((o) => `${flagOf(o.env)} <value>`.length));
  const envWidth = Math.max(...OPTIONS.map((o) => o.env.length));
  const rows = OPTIONS.map((o) => {
    const shown = defaultTextOf(o);
    return `  ${`${flagOf(o.env)} <value>`.padEnd(flagWidth)} ${o.env.padEnd(envWidth)} ${o.help}${shown === 'unset' ? '' : ` (default: ${shown})`}`;
  });
  return [
    'Usage: npm start -- [flags]   (every flag also reads from its environment variable)',
    'Precedence: flags, then the environment, then a .env file in the working directory, then defaults.',
    '',
    ...rows,
    `${'  --help'.padEnd(flagWidth + 2)} ${''.padEnd(envWidth)} this text`,
  ].join('\n');
}
