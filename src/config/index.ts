// The configuration's public surface: the typed table (table.ts), its sections' types, and
// loadConfig (load.ts), the one place that reads the environment and the command line.
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

export {
  /** @internal test seam */ defaultConfig,
  flagOf,
  helpText,
  isLoopback,
  listenHost,
  loadConfig,
} from './load';
