// The one place that reads the environment, the command line and the config file (file.ts).
// Everything below receives the frozen Config built here (one section per room, see table.ts); a bad
// value stops start-up with one line naming the variable, the flag or the file's key.
import { existsSync } from 'node:fs';
import { type FileSetting, readConfigFile } from './file';
import { ConfigError, text } from './parsers';
import { type Config, OPTIONS } from './table';

/** Names the config file (file.ts); the one flag that is no setting. */
export const CONFIG_FLAG = '--config';

export const flagOf = (env: string): string => `--${env.toLowerCase().replaceAll('_', '-')}`;

/** The flags given, by variable, and the --config file if one is named. */
interface Argv {
  readonly values: Map<string, string>;
  readonly configFile?: string;
}

/** Reads `--flag value` / `--flag=value` pairs and `--config FILE`; unknown flags are an error. */
function parseArgv(argv: readonly string[]): Argv {
  const byFlag = new Map(OPTIONS.map((o) => [flagOf(o.env), o.env]));
  const values = new Map<string, string>();
  let configFile: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const env = byFlag.get(flag);
    if (!env && flag !== CONFIG_FLAG) throw new ConfigError(`unknown argument "${flag}" (see --help)`);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new ConfigError(`${flag}: needs a value`);
    if (env) values.set(env, value);
    else configFile = text(value, flag);
  }
  return { values, configFile };
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

/**
 * Builds the config from the flags, the environment, the config file and the defaults, in that order
 * of precedence. The file is the one --config names, else `defaultFile` when it exists (main.ts passes
 * gateway.config.yaml; tests and tools none). Throws ConfigError with one line.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
  defaultFile?: string,
): Config {
  const flags = parseArgv(argv);
  const path =
    flags.configFile ?? (defaultFile !== undefined && existsSync(defaultFile) ? defaultFile : undefined);
  const file = path === undefined ? new Map<string, FileSetting>() : readConfigFile(path);
  const sections: Record<string, Record<string, unknown>> = {};
  for (const option of OPTIONS) {
    const flag = flags.values.get(option.env);
    const fromEnv = env[option.env];
    const fromFile = file.get(option.env);
    sections[option.section] ??= {};
    (sections[option.section] as Record<string, unknown>)[option.key] =
      flag !== undefined
        ? option.parse(flag, flagOf(option.env))
        : fromEnv !== undefined && fromEnv !== ''
          ? option.parse(fromEnv, option.env)
          : fromFile !== undefined
            ? option.parse(fromFile.raw, fromFile.name)
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
