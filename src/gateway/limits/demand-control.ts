// Admission on upstream calls: every operation, over HTTP or graphql-ws, persisted or not, is planned
// (./demand/plan.ts) after validation and before it runs, and refused without an upstream call when it is
// predicted to make more calls than MAX_UPSTREAM_CALLS_PER_OPERATION, to answer with more objects
// than MAX_RESPONSE_OBJECTS, or to need more calls than its credential's budget has left right now.
// Each answer then says what was predicted and what was made: extensions.upstreamCalls.
import { type ExecutionArgs, type ExecutionResult, GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../context';
import { GatewayError } from '../../errors';
import { type RateBudget, retryAfterFromMs } from '../../shared-state';
import { toGraphQLError } from '../execution/graphql-errors';
import { ArgumentRefusal, type Plan } from './demand/plan';
import { planOf } from './demand/plans';

/** The onExecuteDone hook yoga hands an operation's plugins. */
type ExecuteDone = NonNullable<
  Exclude<Awaited<ReturnType<NonNullable<Plugin<Context>['onExecute']>>>, void>['onExecuteDone']
>;

const UPSTREAM_CALLS_EXTENSION = 'upstreamCalls';

export interface DemandLimits {
  /** MAX_UPSTREAM_CALLS_PER_OPERATION */
  readonly maxUpstreamCalls: number;
  /** MAX_RESPONSE_OBJECTS */
  readonly maxResponseObjects: number;
}

export interface DemandBudget {
  readonly store: RateBudget;
  /** UPSTREAM_RATE_LIMIT_PER_MIN; 0: clients' calls are not budgeted, nothing to refuse up front. */
  readonly limitPerMin: number;
}

const tooExpensive = (plan: Plan, limits: DemandLimits): GatewayError | undefined => {
  if (plan.calls > limits.maxUpstreamCalls)
    return new GatewayError(
      'OPERATION_TOO_EXPENSIVE',
      `This operation would make up to ${plan.calls} upstream calls; at most ${limits.maxUpstreamCalls} are allowed. Ask for fewer items or joins, or split it.`,
      { httpStatus: 400 },
    );
  if (plan.objects > limits.maxResponseObjects)
    return new GatewayError(
      'OPERATION_TOO_EXPENSIVE',
      `This operation's answer could hold ${plan.objects} objects; at most ${limits.maxResponseObjects} are allowed. Ask for fewer items or joins.`,
      { httpStatus: 400 },
    );
  return undefined;
};

/** Milliseconds until the credential's budget has room for the plan's calls (0: now). */
async function budgetWait(budget: DemandBudget, digest: string, plan: Plan): Promise<number> {
  const reads = plan.calls - plan.writes;
  // Writes may use the whole window, reads all but the tenth kept for writes (shared-state/budget/).
  const waits = await Promise.all([
    plan.writes > 0 ? budget.store.waitFor(digest, 'mutation', plan.calls) : 0,
    reads > 0 ? budget.store.waitFor(digest, 'read', reads) : 0,
  ]);
  return Math.max(...waits);
}

interface Judgement {
  readonly plan: Plan;
  readonly refusal?: GatewayError | ArgumentRefusal;
}

/**
 * The plan of `args`, or the refusal it earns: a list argument out of range, too expensive, or no
 * budget. Synchronous unless the budget must be asked (UPSTREAM_RATE_LIMIT_PER_MIN on): an
 * operation admitted without waiting runs in the same tick, with no promise of its own.
 */
function judge(
  args: ExecutionArgs,
  limits: DemandLimits,
  budget: DemandBudget | undefined,
): Judgement | Promise<Judgement> {
  const plan = planOf({
    schema: args.schema as GraphQLSchema,
    document: args.document,
    operationName: args.operationName,
    variables: args.variableValues,
    maxUpstreamCalls: limits.maxUpstreamCalls,
  });
  if (plan instanceof ArgumentRefusal) return { plan: { calls: 0, writes: 0, objects: 0 }, refusal: plan };
  const refusal = tooExpensive(plan, limits);
  if (refusal) return { plan, refusal };
  const ctx = args.contextValue as Context;
  // A subscription's calls are its observations' joins, paid from the live share as each comes.
  if (!budget || budget.limitPerMin <= 0 || plan.calls === 0 || !ctx.authenticated || plan.stream)
    return { plan };
  return budgetWait(budget, ctx.client.key.digest, plan).then((waitMs) => {
    if (waitMs <= 0) return { plan };
    const retryAfter = retryAfterFromMs(waitMs);
    return {
      plan,
      refusal: new GatewayError(
        'RATE_LIMITED',
        `This operation needs up to ${plan.calls} upstream calls and this credential's budget has fewer left now; retry after retryAfter seconds.`,
        { retryAfter, httpStatus: 429 },
      ),
    };
  });
}

const withCalls = (result: ExecutionResult, calls: { predicted: number; made: number }): ExecutionResult => ({
  ...result,
  extensions: { ...result.extensions, [UPSTREAM_CALLS_EXTENSION]: { ...calls } },
});

/** The refused operation's answer: the error, with the prediction it was judged on. */
function refused(refusal: GatewayError | ArgumentRefusal, plan: Plan, limits: DemandLimits): ExecutionResult {
  // An argument out of range: the field's error, as execution would give it (no data at all).
  if (refusal instanceof ArgumentRefusal) {
    const error = toGraphQLError(refusal.error, new GraphQLError(refusal.message, { path: refusal.path }));
    return withCalls({ data: null, errors: [error] }, { predicted: 0, made: 0 });
  }
  const error = toGraphQLError(refusal);
  Object.assign(error.extensions, {
    [UPSTREAM_CALLS_EXTENSION]: { predicted: plan.calls, limit: limits.maxUpstreamCalls },
    responseObjects: { predicted: plan.objects, limit: limits.maxResponseObjects },
  });
  return withCalls({ errors: [error] }, { predicted: plan.calls, made: 0 });
}

type OperationCalls = Context['upstreamScope']['operation'];

export function useDemandControl(limits: DemandLimits, budget?: DemandBudget): Plugin<Context> {
  /** Plans, notes the prediction, and refuses or lets the operation run (in the same tick when it can). */
  const admit = (
    args: ExecutionArgs,
    stop: (result: ExecutionResult) => void,
  ): OperationCalls | undefined | Promise<OperationCalls | undefined> => {
    const scope = (args.contextValue as Context).upstreamScope;
    const settle = ({ plan, refusal }: Judgement): OperationCalls | undefined => {
      const calls = scope.operation;
      if (calls) calls.predicted = plan.calls;
      if (scope.tally) scope.tally.predicted += plan.calls;
      if (refusal) stop(refused(refusal, plan, limits));
      return refusal ? undefined : calls;
    };
    const judged = judge(args, limits, budget);
    return judged instanceof Promise ? judged.then(settle) : settle(judged);
  };
  // One hook for every admitted operation (it reads the operation's own context): no closure each.
  const reportCalls = {
    onExecuteDone({ args, result, setResult }: Parameters<ExecuteDone>[0]) {
      const calls = args.contextValue.upstreamScope.operation;
      if (calls === undefined || Symbol.asyncIterator in result) return;
      setResult(withCalls(result, calls));
    },
  };
  const afterAdmission = (calls: OperationCalls | undefined) => (calls ? reportCalls : undefined);
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const admitted = admit(args, setResultAndStopExecution);
      return admitted instanceof Promise ? admitted.then(afterAdmission) : afterAdmission(admitted);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const admitted = admit(args, setResultAndStopExecution);
      return admitted instanceof Promise ? admitted.then(() => undefined) : undefined;
    },
  };
}
