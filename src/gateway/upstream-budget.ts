// Clients see where their credential stands in the gateway's upstream budget: a result whose
// operation claimed upstream calls carries `extensions.upstreamBudget: { limit, remaining }` —
// calls per rolling minute (UPSTREAM_RATE_LIMIT_PER_MIN) and those left, after its last claim, for
// the kind it made (reads leave the last tenth to writes). Cached or coalesced answers claim
// nothing and carry nothing; neither does a streamed result.
import type { Plugin } from 'graphql-yoga';
import { currentUpstreamTally } from './observability';

export const UPSTREAM_BUDGET_EXTENSION = 'upstreamBudget';

/** Needs useRequestLog earlier in the plugin list: it keeps the request's upstream tally. */
export function useUpstreamBudgetExtension(): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      const budget = currentUpstreamTally()?.budget;
      if (budget === undefined || result === undefined || Symbol.asyncIterator in result) return;
      setResult({
        ...result,
        extensions: { ...result.extensions, [UPSTREAM_BUDGET_EXTENSION]: { ...budget } },
      });
    },
  };
}
