// The end of an admitted operation's holds in the upstream budget (demand-control.ts reserves them):
// when it finishes, errors and refusals by later plugins included, or when its @defer/@stream answer
// ends or its client leaves it, the holds its calls did not take are dropped, so only the calls it
// made stay counted in the window. Awaited before a single answer is sent, so the caller's next
// operation sees the room. A live query makes its calls for its first payload only (its later ones
// are evaluated over the observation), so its holds are dropped once that payload is out. (Holds nobody drops leave with the window: shared-state/budget/.)
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../context';
import type { RateBudget } from '../../shared-state';
import type { CallScope } from '../../upstream';
import type { ExecuteDone } from '../plugin-hooks';

export function useBudgetHolds(store: RateBudget): Plugin<Context> {
  const release = (scope: CallScope): Promise<void> => {
    const reservation = scope.reservation;
    if (reservation === undefined) return Promise.resolve();
    scope.reservation = undefined;
    // The budget answers from this process when Redis fails; nothing here may fail the answer.
    return store.release(reservation).catch(() => undefined);
  };
  // One hook for every operation (it reads the operation's own scope): no closure but a stream's.
  const afterExecution = {
    onExecuteDone({ args, result }: Parameters<ExecuteDone>[0]) {
      const scope = args.contextValue.upstreamScope;
      if (scope.reservation === undefined) return undefined;
      if (Symbol.asyncIterator in result)
        return {
          onNext: ({ result: payload }: { result: object }) => {
            if ('revision' in payload) void release(scope);
          },
          onEnd: () => void release(scope),
        };
      return release(scope);
    },
  };
  // Demand control's onExecute has run (reserving) when this one runs: only a reservation needs the end.
  return {
    onExecute: ({ args }) =>
      args.contextValue.upstreamScope.reservation === undefined ? undefined : afterExecution,
  };
}
