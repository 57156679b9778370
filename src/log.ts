// The gateway's logger: pino JSON lines, one object per event, secrets redacted by path. In
// development on a terminal the lines go through pino-pretty when it is installed (a dev dependency).
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';
import { BatchedOutput } from './log-output';

/** What the logger reads of the config: its own section and the environment. */
export interface LogSettings {
  readonly log: Config['log'];
  readonly server: Pick<Config['server'], 'nodeEnv'>;
}

export type { Logger } from 'pino';

/**
 * Paths never written out, wherever a caller puts them: headers, keys, tokens, variables.
 * The gateway does not log these in the first place; this is the second line of defence.
 */
const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.authorization',
  'apiKey',
  '*.apiKey',
  'ngrokApiKey',
  '*.ngrokApiKey',
  '*.*.apiKey',
  'token',
  '*.token',
  'gatewayTokens',
  '*.gatewayTokens',
  '*.*.gatewayTokens',
  'variables',
  '*.variables',
];

/** True when pino-pretty can be loaded (it is a dev dependency, absent from production installs). */
function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** @internal test seam: whether lines are pretty-printed: `auto` means development on a terminal with pino-pretty installed. */
export function usePretty(config: LogSettings, isTty: boolean): boolean {
  if (config.log.format === 'json') return false;
  if (config.log.format === 'pretty') return prettyAvailable();
  return config.server.nodeEnv === 'development' && isTty && prettyAvailable();
}

/**
 * The process logger. `destination` is for tests (an in-memory stream); otherwise stdout, pretty
 * per `usePretty`.
 */
export function createLogger(config: LogSettings, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.log.level,
    base: { service: 'ngrok-graphql-gateway' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  if (usePretty(config, process.stdout.isTTY === true)) {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        // One line per event (a request's nested upstream figures included); colours on a terminal only.
        options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' },
      },
    });
  }
  // Batched, never waiting on stdout, and never holding up the exit (./log-output.ts).
  return pino(
    options,
    new BatchedOutput({
      fd: 1,
      batchBytes: LOG_BATCH_BYTES,
      flushMs: LOG_FLUSH_MS,
      maxBytes: LOG_BUFFER_BYTES,
      exitBudgetMs: LOG_EXIT_BUDGET_MS,
    }),
  );
}

/** Bytes of lines gathered before a write. */
const LOG_BATCH_BYTES = 8 * 1024;
/** The longest a line waits to be written. */
const LOG_FLUSH_MS = 100;
/** Bytes of lines held while stdout does not take them. */
const LOG_BUFFER_BYTES = 4 * 1024 * 1024;
/** At exit, how long a stdout that takes nothing (a full pipe) is waited on. */
const LOG_EXIT_BUDGET_MS = 1_000;

/** A logger that writes nothing (the default of createGateway). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
