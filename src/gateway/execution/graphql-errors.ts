// The one place where the gateway's errors become GraphQL errors. Anything that is not ours, or
// not already a GraphQL error of the request's own making, is masked; what leaves carries a code
// (sanitized), which the plugins beside it apply to every answer (./error-codes.ts) and to @defer
// and @stream payloads (./incremental-error-masking.ts).
import { GraphQLError } from 'graphql';
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
export function sanitized(error: GraphQLError): GraphQLError {
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
