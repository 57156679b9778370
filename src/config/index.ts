// The configuration's public surface: the typed table (table.ts), its sections' types, and
// loadConfig (load.ts), the one place that reads the environment, the command line and the config
// file (file.ts), and --help and --version (help.ts).
import type { Config } from './table';

export { ConfigError, type GatewayToken, type TokenScope } from './parsers';
export { type Config, defaultTextOf, OPTIONS } from './table';

export type ServerConfig = Config['server'];
export type UpstreamConfig = Config['upstream'];
export type LimitsConfig = Config['limits'];
export type CacheConfig = Config['cache'];
export type PersistedConfig = Config['persisted'];
export type RedisConfig = Config['redis'];
export type LiveConfig = Config['live'];
export type TracingConfig = Config['tracing'];

export { DEFAULT_CONFIG_FILE } from './file';
export { /** @internal test seam */ HELP_WIDTH, helpText, versionText } from './help';
export {
  /** @internal test seam */ defaultConfig,
  flagOf,
  isLoopback,
  listenHost,
  loadConfig,
} from './load';
