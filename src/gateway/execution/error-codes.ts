// Every error of every answer leaves with extensions.code and without what the client sent (the
// JSON parser's message quotes the body): yoga's masking covers only errors thrown while executing.
// A subscription asked for by a client that accepts no stream gets a coded 406 instead of an empty one.
import { GraphQLError } from 'graphql';
import { type Plugin, processRegularResult } from 'graphql-yoga';
import { sanitized } from './graphql-errors';

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
export const useErrorCodes = (): Plugin => ({
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
});
