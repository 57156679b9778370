// One log line per request: request id, operation, status, duration, the upstream calls made for
// it and the outcome. The request id comes from X-Request-Id when the caller sends a sane one, and
// is echoed in the response. Upstream calls are counted into the request's tally, which each of its
// operations' upstream scope carries (src/upstream/http/call-scope.ts), so concurrent requests never mix.
// No AsyncLocalStorage: errors of an operation are tied to their request as they leave execution,
// so the masking and yoga's own log lines still name the request.
import { randomUUID } from 'node:crypto';
import { type ExecutionArgs, type ExecutionResult, GraphQLError, getOperationAST } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin, type YogaLogger } from 'graphql-yoga';
import { GatewayError } from '../../errors';
import type { Logger } from '../../log';
import { newTally, type UpstreamEvents, type UpstreamTally } from '../../upstream';
import type { MaskLogger } from '../execution/graphql-errors';
import { loggable } from './operation-names';

const REQUEST_ID_HEADER = 'x-request-id';

interface RequestRecord {
  readonly id: string;
  readonly started: number;
  readonly upstream: UpstreamTally;
  /** True once the request carried GraphQL parameters (not a probe, a scrape or the GraphiQL page). */
  graphql: boolean;
  /** Names the client gave (operationName), then the operations executed: a batch has several. */
  readonly requested: string[];
  readonly executed: { name: string | undefined; type: string }[];
  errorCodes: Set<string>;
  /** A subscription's stream: its line is written when the stream ends, so durationMs covers it. */
  stream?: { ended: boolean; writeLine?: () => void };
}

/** The request each error of an operation came from, noted before masking (see useRequestLog). */
const errorRequests = new WeakMap<object, string>();

/** The id of the request an error (of an operation) belongs to, if known. */
const requestIdOfError = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null ? errorRequests.get(error) : undefined;

/** Accepts the caller's id when it is short and plain, so it cannot forge log structure. */
function requestIdOf(header: string | null): string {
  return header !== null && /^[A-Za-z0-9._:-]{1,128}$/.test(header) ? header : randomUUID();
}

/** Calls every hook of every listener, for one transport with several observers. */
export function combineEvents(...listeners: (UpstreamEvents | undefined)[]): UpstreamEvents {
  const present = listeners.filter((l): l is UpstreamEvents => l !== undefined);
  const combined: Record<string, (e: unknown) => void> = {};
  for (const name of new Set(present.flatMap((l) => Object.keys(l)))) {
    const hooks = present
      .map((l) => (l as Record<string, ((e: unknown) => void) | undefined>)[name])
      .filter((h) => h !== undefined);
    combined[name] = (e) => {
      for (const hook of hooks) hook(e);
    };
  }
  return combined as UpstreamEvents;
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

function collectErrorCodes(result: unknown, into: Set<string>): void {
  for (const r of Array.isArray(result) ? result : [result]) {
    if (typeof r !== 'object' || r === null || Symbol.asyncIterator in r) continue;
    for (const error of (r as ExecutionResult).errors ?? []) {
      // A stream's events are seen before masking, which turns a GatewayError into its code.
      const original = error.originalError;
      const code = error.extensions?.code ?? (original instanceof GatewayError ? original.code : undefined);
      into.add(typeof code === 'string' ? code : 'GRAPHQL_ERROR');
    }
  }
}

/** Longest path or yoga message logged; client text beyond it is cut (see loggable). */
const LONGEST_TEXT = 256;

/** One name, a batch's names comma-separated (each cut to a printable prefix), or null when there is none. */
const joined = (names: (string | undefined)[]): string | null =>
  names.some((n) => n !== undefined)
    ? names.map((n) => (n === undefined ? 'anonymous' : loggable(n))).join(',')
    : null;

const UPSTREAM_CODES = /^(?:UPSTREAM_|RATE_LIMITED$)/;

/** The last URL logged and its path: requests to one URL (nearly all, /graphql) parse it once. */
let lastUrl = '';
let lastPath = '';
const pathOf = (url: string): string => {
  if (url !== lastUrl) {
    lastPath = loggable(new URL(url).pathname, LONGEST_TEXT);
    lastUrl = url;
  }
  return lastPath;
};

/** The onExecuteDone hook yoga hands an operation's plugins. */
type ExecuteDone = NonNullable<
  Exclude<Awaited<ReturnType<NonNullable<Plugin['onExecute']>>>, void>['onExecuteDone']
>;

/** The request log: its yoga plugin, and each request's tally for the upstream scope of its operations. */
export interface RequestLog {
  readonly plugin: Plugin;
  /** The tally of a request's upstream work, counted by the transport (see src/upstream/http/call-scope.ts). */
  tallyOf(request: Request): UpstreamTally | undefined;
  /**
   * A graphql-ws operation, which runs on `request` (made for it: ../transports/websocket.ts) with no HTTP answer:
   * its results are noted as they leave, and its line is written when it ends.
   */
  socketOperation(request: Request): SocketOperationLog;
}

export interface SocketOperationLog {
  /** A result sent (or the errors that refused the operation). */
  noteResult(result: unknown): void;
  /** Writes the operation's line; later calls do nothing. */
  end(): void;
}

/** Notes the request of each error in an operation's result, before masking replaces them. */
function noteErrorsOf(result: ExecutionResult, requestId: string): void {
  for (const error of result.errors ?? []) errorRequests.set(error, requestId);
  // A deferred or streamed payload's errors (@defer, @stream).
  const parts = (result as { incremental?: readonly { errors?: readonly object[] }[] }).incremental;
  for (const error of parts?.flatMap((p) => p.errors ?? []) ?? []) errorRequests.set(error, requestId);
}

/**
 * The yoga plugin writing one line per request and the X-Request-Id response header. The line is
 * written without pino's redaction (the logger's second line of defence, src/log.ts), which would
 * walk every field of every line: each of its fields is the gateway's own (a checked request id,
 * method, path, names cut by `loggable`, counts, codes) and none can hold a credential.
 */
export function createRequestLog(logger: Logger): RequestLog {
  const lines = logger.child({}, { redact: { paths: [] } });
  const records = new WeakMap<Request, RequestRecord>();
  const newRecord = (request: Request): RequestRecord => ({
    id: requestIdOf(request.headers.get(REQUEST_ID_HEADER)),
    started: performance.now(),
    upstream: newTally(),
    graphql: false,
    requested: [],
    executed: [],
    errorCodes: new Set(),
  });
  /** The record of the request an operation belongs to, with the operation noted in it. */
  const recordOf = (args: ExecutionArgs): RequestRecord | undefined => {
    const request = (args.contextValue as { request?: Request }).request;
    return request && records.get(request);
  };
  const executing = (args: ExecutionArgs): RequestRecord | undefined => {
    const record = recordOf(args);
    if (!record) return undefined;
    const operation = getOperationAST(args.document, args.operationName);
    if (operation) record.executed.push({ name: operation.name?.value, type: operation.operation });
    return record;
  };
  /** One hook for every operation (it finds the operation's record), no closure made per operation. */
  const afterExecution = {
    onExecuteDone(payload: Parameters<ExecuteDone>[0]) {
      const record = recordOf(payload.args);
      if (record)
        handleStreamOrSingleExecutionResult(payload, ({ result }) => noteErrorsOf(result, record.id));
    },
  };
  const plugin: Plugin = {
    // Instrumentation, not onRequest: it sees every request, those yoga's own plugins answer too (/health).
    instrumentation: {
      request({ request }, wrapped) {
        records.set(request, newRecord(request));
        return wrapped();
      },
    },
    onParams({ params, request }) {
      const record = records.get(request);
      if (!record) return;
      record.graphql = true;
      if (typeof params.operationName === 'string') record.requested.push(params.operationName);
    },
    onExecute({ args }) {
      // Runs before yoga's masking (a plugin of its own, after the gateway's).
      return executing(args) ? afterExecution : undefined;
    },
    onSubscribe({ args }) {
      const record = executing(args);
      if (!record) return;
      return {
        onSubscribeResult: ({ result }) => {
          if (!(Symbol.asyncIterator in result)) return noteErrorsOf(result, record.id);
          const stream: NonNullable<RequestRecord['stream']> = { ended: false };
          record.stream = stream;
          return {
            onNext: ({ result: event }) => {
              noteErrorsOf(event, record.id);
              collectErrorCodes(event, record.errorCodes);
            },
            onEnd: () => {
              stream.ended = true;
              stream.writeLine?.();
            },
          };
        },
      };
    },
    onResultProcess({ request, result }) {
      const record = records.get(request);
      if (record) collectErrorCodes(result, record.errorCodes);
    },
    onResponse({ request, response }) {
      const record = records.get(request);
      if (!record) return;
      response.headers.set(REQUEST_ID_HEADER, record.id);
      const writeLine = () =>
        writeRequestLine(record, { method: request.method, url: request.url, status: response.status });
      // A stream still open: its line waits for the end, so it covers the stream and its errors.
      if (record.stream && !record.stream.ended && response.body !== null)
        record.stream.writeLine = writeLine;
      else writeLine();
    },
  };

  /** `answer`: the HTTP request and its status; a graphql-ws operation has no status. */
  function writeRequestLine(
    record: RequestRecord,
    answer: { method: string; url: string; status?: number; transport?: string },
  ): void {
    const errors = [...record.errorCodes].sort();
    const status = answer.status ?? 200;
    const failed = status >= 500 || record.errorCodes.has('INTERNAL_SERVER_ERROR');
    const line = {
      reqId: record.id,
      method: answer.method,
      path: pathOf(answer.url),
      ...(answer.transport ? { transport: answer.transport } : {}),
      operationName: joined(
        record.executed.length > 0 ? record.executed.map((o) => o.name) : record.requested,
      ),
      operationType: joined(record.executed.map((o) => o.type)),
      ...(answer.status !== undefined ? { status: answer.status } : {}),
      durationMs: Math.round((performance.now() - record.started) * 10) / 10,
      upstream: record.upstream,
      outcome: errors.length === 0 && status < 400 ? 'ok' : 'error',
      ...(errors.length > 0 ? { errors } : {}),
    };
    if (!record.graphql) lines.debug(line, 'request');
    else if (failed) lines.error(line, 'request');
    else if (errors.some((c) => UPSTREAM_CODES.test(c))) lines.warn(line, 'request');
    else lines.info(line, 'request');
  }
  function socketOperation(request: Request): SocketOperationLog {
    const record = { ...newRecord(request), graphql: true };
    records.set(request, record);
    let ended = false;
    return {
      noteResult: (result) => collectErrorCodes(result, record.errorCodes),
      end: () => {
        if (ended) return;
        ended = true;
        writeRequestLine(record, { method: request.method, url: request.url, transport: 'graphql-ws' });
      },
    };
  }
  return { plugin, tallyOf: (request) => records.get(request)?.upstream, socketOperation };
}

/** The request log's yoga plugin (createRequestLog), for yoga's list of plugins. */
export const useRequestLog = (log: RequestLog): Plugin => log.plugin;
