// The one place where the gateway's errors become GraphQL errors. Anything that is not ours, or
// not already a GraphQL error of the request's own making, is masked.
import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin, processRegularResult } from 'graphql-yoga';
import { GatewayError } from '../../errors';

export interface MaskLogger {
  /** `cause`: the error being masked (the log finds its request by it). */
  error(details: object, message: string, cause?: unknown): void;
}

export function toGraphQLError(error: GatewayError, base?: GraphQLError): GraphQLError {
  const { upstream, retryAfter, httpStatus } = error.details;
  const extensions: Record<string, unknown> = { code: error.code };
  if (retryAfter !== undefined) extensions.retryAfter = retryAfter;
  if (upstream) {
    extensions.upstream = {
      status: upstream.status ?? null,
      errorCode: upstream.errorCode ?? null,
      operationId: upstream.operationId ?? null,
    };
  }
  if (httpStatus !== undefined) extensions.http = { status: httpStatus };
  if (error.details.outcome !== undefined) extensions.outcome = error.details.outcome;
  return new GraphQLError(error.message, {
    nodes: base?.nodes,
    source: base?.source,
    positions: base?.positions,
    path: base?.path,
    extensions,
  });
}

/** yoga's maskError: our errors keep their code and message, the unexpected ones say nothing. */
export const createMaskError =
  (logger: MaskLogger) =>
  (error: unknown): Error => {
    const original = error instanceof GraphQLError ? (error.originalError ?? undefined) : error;
    if (original instanceof GatewayError)
      return toGraphQLError(original, error instanceof GraphQLError ? error : undefined);
    // Parse and validation errors, and the ones the gateway raises as GraphQLError itself.
    if (error instanceof GraphQLError && (original === undefined || original instanceof GraphQLError))
      return error;
    logger.error(
      {
        err: {
          name: (original as Error | undefined)?.name ?? 'unknown',
          path: error instanceof GraphQLError ? error.path : undefined,
        },
      },
      'unexpected error while executing an operation',
      error,
    );
    const base = error instanceof GraphQLError ? error : undefined;
    return new GraphQLError('Unexpected error.', {
      nodes: base?.nodes,
      source: base?.source,
      positions: base?.positions,
      path: base?.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  };

/** graphql-js's variable coercion errors: the client's variables do not fit the operation. */
const COERCION = /^Variable "\$/;

/** The code of an error that came without one: the request's fault unless it is a field's. */
function codeFor(error: GraphQLError): string {
  if (error.path !== undefined) return 'INTERNAL_SERVER_ERROR';
  return COERCION.test(error.message) ? 'BAD_USER_INPUT' : 'BAD_REQUEST';
}

/**
 * The error as it may leave: with a code, and without `originalError` in its extensions (yoga puts
 * the JSON parser's message there, which quotes the client's body). Its HTTP status is kept as it
 * was (`spec` dropped with the detail would turn yoga's 400 into 200 for application/json).
 */
function sanitized(error: GraphQLError): GraphQLError {
  const {
    originalError: detail,
    http,
    ...rest
  } = error.extensions as Record<string, unknown> & {
    http?: { status?: number; headers?: Record<string, string>; spec?: boolean };
  };
  if (detail === undefined && typeof rest.code === 'string') return error;
  const keptHttp = http && detail !== undefined ? { ...http, spec: undefined } : http;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: {
      ...rest,
      code: typeof rest.code === 'string' ? rest.code : codeFor(error),
      ...(keptHttp ? { http: keptHttp } : {}),
    },
  });
}

/**
 * A subscription asked for by a client that accepts no stream: yoga would answer 406 with an empty
 * body. The stream is closed and the client told, with a code, how to subscribe.
 */
function refusedStream(result: Partial<AsyncIterator<unknown>>): unknown {
  void result.return?.();
  const message =
    'Subscriptions are streams: send them with Accept: text/event-stream (GraphQL over SSE) or over graphql-ws.';
  return {
    errors: [new GraphQLError(message, { extensions: { code: 'NOT_ACCEPTABLE', http: { status: 406 } } })],
  };
}

const isStream = (result: unknown): result is Partial<AsyncIterator<unknown>> =>
  typeof result === 'object' && result !== null && Symbol.asyncIterator in result;

function sanitizedResult(result: unknown): unknown {
  if (typeof result !== 'object' || result === null || isStream(result)) return result;
  const errors = (result as { errors?: readonly unknown[] }).errors;
  if (!errors?.length) return result;
  return {
    ...result,
    errors: errors.map((e) => (e instanceof GraphQLError ? sanitized(e) : e)),
  };
}

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** Every error of every answer carries extensions.code, and none repeats what the client sent. */
export const useErrorCodes: Plugin = {
  onResultProcess({ request, result, setResult, resultProcessor, setResultProcessor }) {
    if (isStream(result) && resultProcessor === undefined) {
      // No processor accepts a stream for this client: yoga would answer 406 with an empty body.
      setResult(refusedStream(result) as never);
      const json = request.headers.get('accept')?.includes(GRAPHQL_RESPONSE)
        ? GRAPHQL_RESPONSE
        : 'application/json';
      setResultProcessor(processRegularResult, json);
      return;
    }
    const each = (r: unknown) => (isStream(r) ? refusedStream(r) : sanitizedResult(r));
    setResult((Array.isArray(result) ? result.map(each) : sanitizedResult(result)) as never);
  },
};

/** One deferred or streamed payload's part (@defer, @stream), as far as its errors go. */
interface IncrementalPart {
  readonly errors?: readonly unknown[];
}

/**
 * Errors of the payloads after the first (@defer, @stream), masked and coded like every other:
 * yoga's masking reads only `errors` at the top of each payload, and theirs sit in `incremental`.
 */
export function useIncrementalErrorMasking(maskError: (error: unknown) => Error): Plugin {
  const masked = (e: unknown) => {
    const error = maskError(e);
    return error instanceof GraphQLError ? sanitized(error) : error;
  };
  return {
    onExecute: () => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
          const parts = (result as { incremental?: readonly IncrementalPart[] }).incremental;
          if (!parts?.some((p) => p.errors?.length)) return;
          const incremental = parts.map((p) =>
            p.errors?.length ? { ...p, errors: p.errors.map(masked) } : p,
          );
          setResult({ ...result, incremental } as typeof result);
        }),
    }),
  };
}
