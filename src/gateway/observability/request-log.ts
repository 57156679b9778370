// One log line per request: request id, operation, status, duration, the upstream calls made for
// it and the outcome. The request id comes from X-Request-Id when the caller sends a sane one, and
// is echoed in the response. Upstream calls are counted into the request's ledger, the sum of its
// operations' (src/upstream/call/ledger.ts, each carried by its upstream scope), so concurrent requests
// never mix.
// A streamed answer's line (a subscription, @defer, @stream) is written when its stream ends, once.
// Errors are tied to their request as they leave execution (./error-requests.ts).
import { randomUUID } from 'node:crypto';
import { type ExecutionArgs, getOperationAST } from 'graphql';
import { handleStreamOrSingleExecutionResult, isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Logger } from '../../log';
import { CallLedger, type UpstreamEvents } from '../../upstream';
import { collectErrorCodes, watchedStream } from './answer-codes';
import { LONGEST_TEXT, noteErrorsOf } from './error-requests';
import { loggable } from './operation-names';

const REQUEST_ID_HEADER = 'x-request-id';

interface RequestRecord {
  readonly id: string;
  readonly started: number;
  /** What its upstream calls did: the sum of its operations' ledgers. */
  readonly upstream: CallLedger;
  /** True once the request carried GraphQL parameters (not a probe, a scrape or the GraphiQL page). */
  graphql: boolean;
  /** Names the client gave (operationName), then the operations executed: a batch has several. */
  readonly requested: string[];
  readonly executed: { name: string | undefined; type: string }[];
  errorCodes: Set<string>;
  /** A streamed answer (a subscription, @defer, @stream): its line is written when the stream ends. */
  stream?: StreamEnd;
}

/** Where a stream stands: its line, set once the response is out, is written at its end. */
interface StreamEnd {
  ended: boolean;
  writeLine?: () => void;
}

/** Ends a stream once, however many ways it is told (done, failed, returned). */
const endStream = (stream: StreamEnd): void => {
  if (stream.ended) return;
  stream.ended = true;
  stream.writeLine?.();
};

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

/** The request log: its yoga plugin, and each request's ledger, which its operations' ledgers count into. */
export interface RequestLog {
  readonly plugin: Plugin;
  /** The ledger of a request's upstream calls, counted by the transport (see src/upstream/call/ledger.ts). */
  ledgerOf(request: Request): CallLedger | undefined;
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
    upstream: new CallLedger(),
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
          const stream: StreamEnd = { ended: false };
          record.stream = stream;
          return {
            onNext: ({ result: event }) => {
              noteErrorsOf(event, record.id);
              collectErrorCodes(event, record.errorCodes);
            },
            onEnd: () => endStream(stream),
          };
        },
      };
    },
    onResultProcess({ request, result, setResult }) {
      const record = records.get(request);
      if (!record) return;
      if (!isAsyncIterable(result) || record.stream) return collectErrorCodes(result, record.errorCodes);
      // An answer in payloads (@defer, @stream): the codes of each as it leaves (masked, as the client
      // reads it), and the line once the last has gone or the client has gone.
      const stream: StreamEnd = { ended: false };
      record.stream = stream;
      const { errorCodes } = record;
      const watched = watchedStream(
        result,
        (payload) => collectErrorCodes(payload, errorCodes),
        () => endStream(stream),
      );
      // A client gone before its body is read: nothing reads or cancels the stream, so it is ended here.
      const leave = () => void watched.return?.();
      if (request.signal.aborted) leave();
      else request.signal.addEventListener('abort', leave, { once: true });
      setResult(watched);
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
      upstream: record.upstream.tally(),
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
  return { plugin, ledgerOf: (request) => records.get(request)?.upstream, socketOperation };
}

/** The request log's yoga plugin (createRequestLog), for yoga's list of plugins. */
export const useRequestLog = (log: RequestLog): Plugin => log.plugin;
