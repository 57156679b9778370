// Every answer the harness reads (stack.gql, graphql-ws `run`) says what its operation was predicted
// to cost upstream and what it made (extensions.upstreamCalls). The harness checks made <= predicted
// on every one, so the whole suite holds the planner to its upper bound, and hands tests the answer
// without it (the figures stay on `upstreamCalls` for the tests about them).
export interface UpstreamCalls {
  readonly predicted: number;
  readonly made: number;
}

interface WithExtensions {
  extensions?: Record<string, unknown>;
}

/** The answer without extensions.upstreamCalls, and the figures it carried; throws when made > predicted. */
export function takeUpstreamCalls<T>(answer: T): { answer: T; calls: UpstreamCalls | undefined } {
  if (typeof answer !== 'object' || answer === null) return { answer, calls: undefined };
  const { extensions, ...rest } = answer as T & WithExtensions;
  const calls = extensions?.upstreamCalls as UpstreamCalls | undefined;
  if (calls === undefined) return { answer, calls: undefined };
  if (calls.made > calls.predicted)
    throw new Error(`an operation made ${calls.made} upstream calls, predicted at most ${calls.predicted}`);
  const { upstreamCalls: _, ...others } = extensions as Record<string, unknown>;
  const kept = Object.keys(others).length > 0 ? { ...rest, extensions: others } : rest;
  return { answer: kept as T, calls };
}
