// Clients see where their credential stands in the gateway's upstream budget: a result whose
// operation claimed upstream calls carries `extensions.upstreamBudget: { limit, remaining }` —
// calls per rolling minute (UPSTREAM_RATE_LIMIT_PER_MIN) and those left, after its last claim, for
// the kind it made (reads leave the last tenth to writes). Cached or coalesced answers claim
// nothing and carry nothing; neither does a streamed result.
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../context';
import type { ExecuteDone } from '../plugin-hooks';

const UPSTREAM_BUDGET_EXTENSION = 'upstreamBudget';

/** Reads the request's upstream tally, which the budget stage fills in (src/upstream/stages/budget.ts). */
export function useUpstreamBudgetExtension(): Plugin<Context> {
  // One hook for every operation (it reads the operation's own context), no closure made per operation.
  const afterExecution = {
    onExecuteDone({ args, result, setResult }: Parameters<ExecuteDone>[0]) {
      const budget = args.contextValue.upstreamScope.tally?.budget;
      if (budget === undefined || Symbol.asyncIterator in result) return;
      setResult({
        ...result,
        extensions: { ...result.extensions, [UPSTREAM_BUDGET_EXTENSION]: { ...budget } },
      });
    },
  };
  return { onExecute: () => afterExecution };
}
