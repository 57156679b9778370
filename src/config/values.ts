// The closed sets some settings choose from.
export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'auto' | 'json' | 'pretty';

export const SUPPORTED_API_VERSIONS = ['2'] as const;
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];
/** OpenTelemetry's standard sampler names (OTEL_TRACES_SAMPLER). */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSampler = (typeof TRACE_SAMPLERS)[number];
