// Which request each error of an operation came from, noted as it leaves execution (before masking
// replaces it), so the masking and yoga's own log lines name the request without AsyncLocalStorage.
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { YogaLogger } from 'graphql-yoga';
import { GatewayError } from '../../errors';
import type { Logger } from '../../log';
import type { MaskLogger } from '../execution/graphql-errors';
import { loggable } from './operation-names';

/** Longest path or yoga message logged; client text beyond it is cut (see loggable). */
export const LONGEST_TEXT = 256;

/** The request each error of an operation came from, noted before masking (see noteErrorsOf). */
const errorRequests = new WeakMap<object, string>();

/** The id of the request an error (of an operation) belongs to, if known. */
const requestIdOfError = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null ? errorRequests.get(error) : undefined;

/** Notes the request of each error in an operation's result, before masking replaces them. */
export function noteErrorsOf(result: ExecutionResult, requestId: string): void {
  for (const error of result.errors ?? []) errorRequests.set(error, requestId);
  // A deferred or streamed payload's errors (@defer, @stream).
  const parts = (result as { incremental?: readonly { errors?: readonly object[] }[] }).incremental;
  for (const error of parts?.flatMap((p) => p.errors ?? []) ?? []) errorRequests.set(error, requestId);
}

/** The masking logger with the request id of the failing request. */
export const maskLoggerOf = (logger: Logger): MaskLogger => ({
  error: (details, message, cause) => logger.error({ reqId: requestIdOfError(cause), ...details }, message),
});

/**
 * Yoga's own log calls through the gateway logger. Yoga repeats every masked error with its stack;
 * maskError has already logged the unexpected ones (without their text), so errors of operations are
 * kept at debug and only by name: no message, stack or upstream text reaches the log.
 */
export function yogaLoggerOf(logger: Logger): YogaLogger {
  const summary = (args: unknown[]) =>
    args
      .map((a) =>
        a instanceof Error ? a.name : typeof a === 'string' ? loggable(a, LONGEST_TEXT) : typeof a,
      )
      .join(' ');
  const line = (args: unknown[]) => ({
    reqId: args.map(requestIdOfError).find((id) => id !== undefined),
    yoga: summary(args),
  });
  // Yoga logs three debug lines a request: their fields are built only when debug is on.
  const debug = (args: unknown[]) => {
    if (logger.isLevelEnabled('debug')) logger.debug(line(args), 'yoga');
  };
  return {
    debug: (...args: unknown[]) => debug(args),
    info: (...args: unknown[]) => logger.info(line(args), 'yoga'),
    warn: (...args: unknown[]) => logger.warn(line(args), 'yoga'),
    error: (...args: unknown[]) => {
      if (args.every((a) => a instanceof GraphQLError || a instanceof GatewayError)) debug(args);
      else logger.error(line(args), 'unexpected error in the HTTP pipeline');
    },
  };
}
