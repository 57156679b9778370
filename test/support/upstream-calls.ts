// Every answer the harness reads (stack.gql, graphql-ws `run`, a streamed answer of ./streamed-answers.ts
// on its last payload) says what its operation was predicted to cost upstream and what it made
// (extensions.upstreamCalls). The harness checks made <= predicted on every one, so the whole suite
// holds the planner to its upper bound, and hands tests the answer without it (the figures stay on
// `upstreamCalls` for the tests about them).
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

/** One payload of a streamed answer (@defer, @stream): the last says hasNext: false. */
interface Payload {
  readonly hasNext?: unknown;
}

/**
 * The payloads of a streamed answer without extensions.upstreamCalls, and the operation's totals,
 * which its last payload (hasNext: false) carries and no payload before it; throws when a payload says
 * made > predicted, when one before the last carries figures, or when the stream ended without them.
 */
export function takeStreamCalls<T extends Payload>(
  payloads: readonly T[],
): { payloads: T[]; calls: UpstreamCalls | undefined } {
  const taken = payloads.map((p) => takeUpstreamCalls(p));
  if (taken.slice(0, -1).some((t) => t.calls !== undefined))
    throw new Error('a payload before the last of a stream carries extensions.upstreamCalls');
  const last = taken.at(-1);
  if (last?.answer.hasNext === false && last.calls === undefined)
    throw new Error('a streamed answer ended (hasNext: false) without extensions.upstreamCalls');
  return { payloads: taken.map((t) => t.answer), calls: last?.calls };
}
