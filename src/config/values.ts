// The closed sets some settings choose from.
export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'auto' | 'json' | 'pretty';

export const SUPPORTED_API_VERSIONS = ['2'] as const;
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];
