// One log line per request: request id, operation, status, duration, the upstream calls made for
// it and the outcome. The request id comes from X-Request-Id when the caller sends a sane one, and
// is echoed in the response. Upstream calls are counted per request through the transport's events,
// which run inside the request's async context (AsyncLocalStorage), so concurrent requests never mix.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { type ExecutionResult, GraphQLError, getOperationAST } from 'graphql';
import type { Plugin, YogaLogger } from 'graphql-yoga';
import { GatewayError } from '../errors';
import type { Logger } from '../log';
import type { UpstreamEvents } from '../upstream/events';
import type { MaskLogger } from './graphql-errors';
import { loggable } from './operation-names';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What one request did upstream. */
export interface UpstreamTally {
  /** HTTP calls sent (each retry is a call). */
  calls: number;
  /** GETs that joined an identical call in flight. */
  coalesced: number;
  /** Reads the read cache answered (CACHE_TTL_MS). */
  cached: number;
  retries: number;
  /** Where the credential stands in the gateway's upstream budget after this request's last claim. */
  budget?: UpstreamBudgetStanding;
}

/** Calls per rolling minute (UPSTREAM_RATE_LIMIT_PER_MIN) and those left for the kind last claimed. */
export interface UpstreamBudgetStanding {
  readonly limit: number;
  readonly remaining: number;
}

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
}

const requests = new AsyncLocalStorage<RequestRecord>();

/** The id of the request being handled in this async context, if any. */
export const currentRequestId = (): string | undefined => requests.getStore()?.id;

/** Accepts the caller's id when it is short and plain, so it cannot forge log structure. */
export function requestIdOf(header: string | null): string {
  return header !== null && /^[A-Za-z0-9._:-]{1,128}$/.test(header) ? header : randomUUID();
}

/** Transport hooks that count upstream work against the request that caused it. */
export const requestTallyEvents: UpstreamEvents = {
  attempt() {
    const r = requests.getStore();
    if (r) r.upstream.calls += 1;
  },
  coalesced() {
    const r = requests.getStore();
    if (r) r.upstream.coalesced += 1;
  },
  cacheHit() {
    const r = requests.getStore();
    if (r) r.upstream.cached += 1;
  },
  retry() {
    const r = requests.getStore();
    if (r) r.upstream.retries += 1;
  },
  budget({ outcome, limit, remaining }) {
    const r = requests.getStore();
    if (r && remaining !== undefined && outcome !== 'waited') r.upstream.budget = { limit, remaining };
  },
};

/** The upstream facts of the request handled in this async context, if any. */
export const currentUpstreamTally = (): Readonly<UpstreamTally> | undefined => requests.getStore()?.upstream;

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
  error: (details, message) => logger.error({ reqId: currentRequestId(), ...details }, message),
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
  const line = (args: unknown[]) => ({ reqId: currentRequestId(), yoga: summary(args) });
  return {
    debug: (...args: unknown[]) => logger.debug(line(args), 'yoga'),
    info: (...args: unknown[]) => logger.info(line(args), 'yoga'),
    warn: (...args: unknown[]) => logger.warn(line(args), 'yoga'),
    error: (...args: unknown[]) => {
      if (args.every((a) => a instanceof GraphQLError || a instanceof GatewayError))
        logger.debug(line(args), 'yoga');
      else logger.error(line(args), 'unexpected error in the HTTP pipeline');
    },
  };
}

function collectErrorCodes(result: unknown, into: Set<string>): void {
  for (const r of Array.isArray(result) ? result : [result]) {
    if (typeof r !== 'object' || r === null || Symbol.asyncIterator in r) continue;
    for (const error of (r as ExecutionResult).errors ?? []) {
      const code = error.extensions?.code;
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

/** The yoga plugin writing one line per request and the X-Request-Id response header. */
export function useRequestLog(logger: Logger): Plugin {
  const records = new WeakMap<Request, RequestRecord>();
  return {
    instrumentation: {
      request({ request }, wrapped) {
        const record: RequestRecord = {
          id: requestIdOf(request.headers.get(REQUEST_ID_HEADER)),
          started: performance.now(),
          upstream: { calls: 0, coalesced: 0, cached: 0, retries: 0 },
          graphql: false,
          requested: [],
          executed: [],
          errorCodes: new Set(),
        };
        records.set(request, record);
        return requests.run(record, wrapped);
      },
    },
    onParams({ params, request }) {
      const record = records.get(request);
      if (!record) return;
      record.graphql = true;
      if (typeof params.operationName === 'string') record.requested.push(params.operationName);
    },
    onExecute({ args }) {
      const record = requests.getStore();
      if (!record) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation) record.executed.push({ name: operation.name?.value, type: operation.operation });
    },
    onResultProcess({ request, result }) {
      const record = records.get(request);
      if (record) collectErrorCodes(result, record.errorCodes);
    },
    onResponse({ request, response }) {
      const record = records.get(request);
      if (!record) return;
      response.headers.set(REQUEST_ID_HEADER, record.id);
      const errors = [...record.errorCodes].sort();
      const failed = response.status >= 500 || record.errorCodes.has('INTERNAL_SERVER_ERROR');
      const line = {
        reqId: record.id,
        method: request.method,
        path: loggable(new URL(request.url).pathname, LONGEST_TEXT),
        operationName: joined(
          record.executed.length > 0 ? record.executed.map((o) => o.name) : record.requested,
        ),
        operationType: joined(record.executed.map((o) => o.type)),
        status: response.status,
        durationMs: Math.round((performance.now() - record.started) * 10) / 10,
        upstream: record.upstream,
        outcome: errors.length === 0 && response.status < 400 ? 'ok' : 'error',
        ...(errors.length > 0 ? { errors } : {}),
      };
      if (!record.graphql) logger.debug(line, 'request');
      else if (failed) logger.error(line, 'request');
      else if (errors.some((c) => UPSTREAM_CODES.test(c))) logger.warn(line, 'request');
      else logger.info(line, 'request');
    },
  };
}
