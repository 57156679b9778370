// What each answer cost upstream, on its extensions, read from its operation's ledger
// (src/upstream/call/ledger.ts):
//   - upstreamCalls: { predicted, made }, on the answer of every operation demand control judged
//     (admitted or refused: demand-control.ts records the prediction);
//   - upstreamBudget: { limit, remaining, shares }, where the credential stands in the gateway's
//     upstream budget after its request's last claim: calls per rolling minute
//     (UPSTREAM_RATE_LIMIT_PER_MIN), those left in it (the limit less the calls made in the window, by
//     every replica), and the shares they are made of: reads, writes, live, each { spent, remaining }
//     (what that kind may still claim: reads leave the last tenth to writes, others' holds count).
//     Cached or coalesced answers claim nothing and carry none.
// A streamed answer (@defer, @stream; multipart, SSE or graphql-ws) carries both on its last payload
// (hasNext: false), once every deferred part has run; the payloads before it carry none. A live
// query's first payload (revision 1) carries both; each later one is an evaluation over the
// account's observation, which calls nothing: upstreamCalls { predicted: 0, made: 0 }. A
// subscription's events carry neither (their calls are their observations' joins, paid from the live
// share); a refused subscription's answer carries them as any refused operation's does.
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../../context';
import type { CallLedger } from '../../upstream';
import type { ExecuteDone, SubscribeResult } from '../plugin-hooks';

export const UPSTREAM_CALLS_EXTENSION = 'upstreamCalls';
const UPSTREAM_BUDGET_EXTENSION = 'upstreamBudget';

/** What a stream's onNext hook is handed: one payload, and how to replace it. */
interface OnNext {
  readonly result: ExecutionResult;
  readonly setResult: (result: ExecutionResult) => void;
}

/** A payload more follows (hasNext: true): not the last of its stream. */
const followed = (result: ExecutionResult): boolean => (result as { hasNext?: boolean }).hasNext === true;

/** A live query's payload after its first (gateway/live-queries/): an evaluation, no call. */
const reEvaluated = (result: ExecutionResult): boolean =>
  ((result as { revision?: number }).revision ?? 0) > 1;

const NO_CALLS = { predicted: 0, made: 0 } as const;

/** `result` with the ledger's figures, copied by name: whatever else the ledger holds stays inside. */
function costed(result: ExecutionResult, ledger: CallLedger): ExecutionResult {
  const budget = ledger.request?.budget;
  if (budget === undefined && !ledger.judged) return result;
  return {
    ...result,
    extensions: {
      ...result.extensions,
      ...(budget
        ? {
            [UPSTREAM_BUDGET_EXTENSION]: {
              limit: budget.limit,
              remaining: budget.remaining,
              shares: budget.shares,
            },
          }
        : {}),
      ...(ledger.judged
        ? { [UPSTREAM_CALLS_EXTENSION]: { predicted: ledger.predicted, made: ledger.made } }
        : {}),
    },
  };
}

/**
 * One hook for every query and mutation (it reads the operation's own context), so a single answer
 * costs no closure; a stream gets one, to look at each payload as it leaves.
 */
const afterExecution = {
  onExecuteDone({ args, result, setResult }: Parameters<ExecuteDone>[0]) {
    const ledger = args.contextValue.upstreamScope.ledger;
    if (ledger === undefined) return;
    // Its answer counts every call it made: none starts after it, those on their way are awaited.
    if (!isAsyncIterable(result)) return ledger.end().then(() => setResult(costed(result, ledger)));
    return {
      onEnd: () => void ledger.end(),
      onNext: ({ result: payload, setResult: setPayload }: OnNext) => {
        if (reEvaluated(payload))
          setPayload({
            ...payload,
            extensions: { ...payload.extensions, [UPSTREAM_CALLS_EXTENSION]: NO_CALLS },
          });
        else if (!followed(payload)) setPayload(costed(payload, ledger));
      },
    };
  },
};

/** A subscription: only the answer of one demand control refused (its events say nothing). */
const afterSubscription = {
  onSubscribeResult({ args, result, setResult }: Parameters<SubscribeResult>[0]) {
    const ledger = args.contextValue.upstreamScope.ledger;
    if (ledger?.refused && !isAsyncIterable(result)) setResult(costed(result, ledger));
  },
};

/** Before demand control in the plugin list, so it also sees the answers demand control refuses. */
export function useCostExtensions(): Plugin<Context> {
  return { onExecute: () => afterExecution, onSubscribe: () => afterSubscription };
}
