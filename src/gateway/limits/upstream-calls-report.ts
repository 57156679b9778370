// What an admitted operation was predicted to call upstream and what it made, on its answer:
// extensions.upstreamCalls. A streamed answer (@defer, @stream) carries the operation's totals on its
// last payload (hasNext: false), once every deferred part has run; the payloads before it carry none.
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { ExecuteDone } from '../plugin-hooks';

/** What a stream's onNext hook is handed: one payload, and how to replace it. */
interface OnNext {
  readonly result: ExecutionResult;
  readonly setResult: (result: ExecutionResult) => void;
}

export const UPSTREAM_CALLS_EXTENSION = 'upstreamCalls';

/** `result` with the figures, copied by name: whatever else the operation's calls hold stays inside. */
export const withCalls = (
  result: ExecutionResult,
  { predicted, made }: { predicted: number; made: number },
): ExecutionResult => ({
  ...result,
  extensions: { ...result.extensions, [UPSTREAM_CALLS_EXTENSION]: { predicted, made } },
});

/** A payload more follows (hasNext: true): not the last of its stream. */
const followed = (result: ExecutionResult): boolean => (result as { hasNext?: boolean }).hasNext === true;

/**
 * The hook of an admitted operation: one object for all (it reads the operation's own context), so a
 * single answer costs no closure; a stream gets one, to look at each payload as it leaves.
 */
export const reportCalls = {
  onExecuteDone({ args, result, setResult }: Parameters<ExecuteDone>[0]) {
    const calls = args.contextValue.upstreamScope.operation;
    if (calls === undefined) return;
    if (!isAsyncIterable(result)) return setResult(withCalls(result, calls));
    return {
      onNext: ({ result: payload, setResult: setPayload }: OnNext) => {
        if (!followed(payload)) setPayload(withCalls(payload, calls));
      },
    };
  },
};
