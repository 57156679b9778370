// The one place where the gateway's errors become GraphQL errors. Anything that is not ours, or
// not already a GraphQL error of the request's own making, is masked.
import { GraphQLError } from 'graphql';
import { GatewayError } from '../errors';

export interface MaskLogger {
  error(details: object, message: string): void;
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
