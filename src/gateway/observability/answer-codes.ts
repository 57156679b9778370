// What the request log reads of an answer as it leaves: the code of each of its errors, those of
// deferred and streamed parts (@defer, @stream) included, and, for an answer streamed over HTTP,
// each payload as it goes and the stream's end, however it ends (done, failed, or the client gone).
import type { ExecutionResult } from 'graphql';
import { mapAsyncIterator } from 'graphql-yoga';
import { GatewayError } from '../../errors';

/** One payload's deferred or streamed parts, as far as their errors go. */
interface IncrementalParts {
  readonly incremental?: readonly { readonly errors?: ExecutionResult['errors'] }[];
}

function addCodes(errors: ExecutionResult['errors'], into: Set<string>): void {
  for (const error of errors ?? []) {
    // A subscription's events are seen before masking, which turns a GatewayError into its code.
    const original = error.originalError;
    const code = error.extensions?.code ?? (original instanceof GatewayError ? original.code : undefined);
    into.add(typeof code === 'string' ? code : 'GRAPHQL_ERROR');
  }
}

/** Adds the code of every error of `result` (an answer, a batch of them, or one payload of a stream). */
export function collectErrorCodes(result: unknown, into: Set<string>): void {
  for (const r of Array.isArray(result) ? result : [result]) {
    if (typeof r !== 'object' || r === null || Symbol.asyncIterator in r) continue;
    addCodes((r as ExecutionResult).errors, into);
    for (const part of (r as IncrementalParts).incremental ?? []) addCodes(part.errors, into);
  }
}

/**
 * `stream` with `onPayload` called on each payload it yields and `onEnd` once it is over: done,
 * failed, or returned early (the client stopped reading or went away: yoga then cancels the body).
 */
export function watchedStream<T>(
  stream: AsyncIterable<T>,
  onPayload: (payload: T) => void,
  onEnd: () => void,
): AsyncIterableIterator<T> {
  return mapAsyncIterator(
    stream,
    (payload: T) => {
      onPayload(payload);
      return payload;
    },
    (error: unknown) => {
      onEnd();
      throw error;
    },
    onEnd,
  );
}
