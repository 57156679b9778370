// What the gateway tells its operators: metrics, logs, readiness.

import { MINUTE_MS } from '../../time';
import { option } from '../option';
import { integer, oneOf } from '../parsers';
import { LOG_LEVELS, type LogFormat, type LogLevel } from '../values';

export const metrics = {
  maxOperationNames: option({
    env: 'METRICS_MAX_OPERATION_NAMES',
    help: 'distinct operation names given their own metric series (the first to validate); others count as "other"',
    default: 50,
    parse: integer(0, 1000),
  }),
};

export const log = {
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
};

export const readiness = {
  timeoutMs: option({
    env: 'READINESS_TIMEOUT_MS',
    help: 'deadline of the upstream check behind /readiness in milliseconds',
    default: 2_000,
    parse: integer(1, MINUTE_MS),
  }),
  cacheMs: option({
    env: 'READINESS_CACHE_MS',
    help: 'how long a /readiness result is reused: one upstream call per period at most',
    default: 10_000,
    parse: integer(0, 600_000),
  }),
};
