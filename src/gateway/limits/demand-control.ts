// Admission on upstream calls: every operation, over HTTP or graphql-ws, persisted or not, is planned
// (./demand/plan.ts) after validation and before it runs, and refused without an upstream call when it is
// predicted to make more calls than MAX_UPSTREAM_CALLS_PER_OPERATION, to answer with more objects
// than MAX_RESPONSE_OBJECTS, or to need more calls than its credential's budget has left right now.
// A query or mutation admitted holds its predicted calls in the budget until it ends (budget-holds.ts
// drops what it did not use), so operations arriving together are judged against each other's.
// It only admits: the prediction goes into the operation's ledger, which cost-extensions.ts reports on
// the answer (extensions.upstreamCalls: predicted, then made), a refused one's too.
import { type ExecutionArgs, type ExecutionResult, GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../context';
import { GatewayError } from '../../errors';
import { type RateBudget, type Reservation, retryAfterFromMs } from '../../shared-state';
import { toGraphQLError } from '../execution/graphql-errors';
import { startsObserved } from '../live-queries';
import { UPSTREAM_CALLS_EXTENSION } from './cost-extensions';
import { type FittingFirst, fittingFirst } from './demand/fitting-first';
import { ArgumentRefusal, type Plan, type PlanRequest } from './demand/plan';
import { planOf } from './demand/plans';
import { coerceVariables, VariableRefusal } from './demand/variables';

/** A too-expensive refusal's page to lower: `{ path, first }` (the largest `first` that fits). */
const FITS_EXTENSION = 'fitsWith';

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

/** How the refusal ends: the largest `first` of a page at which the operation would fit, if one does. */
const advice = (fits: FittingFirst | undefined, otherwise: string): string =>
  fits
    ? `It would fit with first: ${fits.first} at ${fits.path.join('.')}; or ${otherwise}`
    : `${otherwise[0]?.toUpperCase()}${otherwise.slice(1)}`;

/** The refusal of a plan over one of the limits (calls first). */
const tooExpensive = (plan: Plan, limits: DemandLimits, fits: FittingFirst | undefined): GatewayError =>
  plan.calls > limits.maxUpstreamCalls
    ? new GatewayError(
        'OPERATION_TOO_EXPENSIVE',
        `This operation would make up to ${plan.calls} upstream calls; at most ${limits.maxUpstreamCalls} are allowed. ${advice(fits, 'ask for fewer items or joins, or split it.')}`,
        { httpStatus: 400 },
      )
    : new GatewayError(
        'OPERATION_TOO_EXPENSIVE',
        `This operation's answer could hold ${plan.objects} objects; at most ${limits.maxResponseObjects} are allowed. ${advice(fits, 'ask for fewer items or joins.')}`,
        { httpStatus: 400 },
      );

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

/** Holds on the plan's calls in the credential's budget, or the milliseconds until they would fit. */
async function budgetHold(budget: DemandBudget, digest: string, plan: Plan): Promise<Reservation | number> {
  const decision = await budget.store.reserve(digest, { calls: plan.calls, writes: plan.writes });
  return decision.granted ? decision.reservation : decision.retryInMs;
}

type Refusal = GatewayError | ArgumentRefusal | VariableRefusal;

interface Judgement {
  readonly plan: Plan;
  readonly refusal?: Refusal;
  /** Of a refusal as too expensive: the page to lower, and to what. */
  readonly fits?: FittingFirst;
  /** The holds of an admitted operation that `hold`s (see judge). */
  readonly reservation?: Reservation;
}

const NO_PLAN: Plan = { calls: 0, writes: 0, objects: 0 };

/**
 * The plan of `args`, or the refusal it earns: variables graphql-js refuses, a list argument out of range, too expensive, or no
 * budget. Synchronous unless the budget must be asked (UPSTREAM_RATE_LIMIT_PER_MIN on): an
 * operation admitted without waiting runs in the same tick, with no promise of its own. With
 * `hold` (queries and mutations), admission reserves the plan's calls in the same step as it
 * judges them; without it (subscriptions) the budget is only asked.
 */
function judge(
  args: ExecutionArgs,
  limits: DemandLimits,
  budget: DemandBudget | undefined,
  hold: boolean,
): Judgement | Promise<Judgement> {
  const schema = args.schema as GraphQLSchema;
  const variables = coerceVariables(schema, args.document, args.operationName, args.variableValues);
  if (variables instanceof VariableRefusal) return { plan: NO_PLAN, refusal: variables };
  const request: PlanRequest = {
    schema,
    document: args.document,
    operationName: args.operationName,
    variables,
    maxUpstreamCalls: limits.maxUpstreamCalls,
  };
  const plan = planOf(request);
  if (plan instanceof ArgumentRefusal) return { plan: NO_PLAN, refusal: plan };
  if (plan.calls > limits.maxUpstreamCalls || plan.objects > limits.maxResponseObjects) {
    const fits = fittingFirst(request, {
      calls: limits.maxUpstreamCalls,
      objects: limits.maxResponseObjects,
    });
    return { plan, refusal: tooExpensive(plan, limits, fits), ...(fits ? { fits } : {}) };
  }
  if (plan.calls === 0) return { plan };
  // A live query whose account is observed: its first result is an evaluation, at no call.
  const observed = startsObserved(args);
  if (observed === false) return admitted(args, plan, budget, hold);
  return observed.then((yes) => (yes ? { plan: { ...plan, calls: 0 } } : admitted(args, plan, budget, hold)));
}

/** An operation that will make calls, admitted on them by the budget (or refused). */
function admitted(
  args: ExecutionArgs,
  plan: Plan,
  budget: DemandBudget | undefined,
  hold: boolean,
): Judgement | Promise<Judgement> {
  const ctx = args.contextValue as Context;
  // A subscription's calls are its observations' joins, paid from the live share as each comes.
  if (!budget || budget.limitPerMin <= 0 || !ctx.authenticated || plan.stream) return { plan };
  const digest = ctx.client.key.digest;
  const asked = hold ? budgetHold(budget, digest, plan) : budgetWait(budget, digest, plan);
  return asked.then((answer) => {
    if (typeof answer !== 'number') return { plan, reservation: answer };
    if (answer <= 0) return { plan };
    const retryAfter = retryAfterFromMs(answer);
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

/** The refused operation's answer: the error, with the prediction and limits it was judged on. */
function refused(refusal: Refusal, plan: Plan, limits: DemandLimits, fits?: FittingFirst): ExecutionResult {
  // Variables that do not fit: a request error, as graphql-js words it (no data at all).
  if (refusal instanceof VariableRefusal) return { errors: [...refusal.errors] };
  // An argument out of range: the field's error, as execution would give it (no data at all).
  if (refusal instanceof ArgumentRefusal) {
    const error = toGraphQLError(refusal.error, new GraphQLError(refusal.message, { path: refusal.path }));
    return { data: null, errors: [error] };
  }
  const error = toGraphQLError(refusal);
  Object.assign(error.extensions, {
    [UPSTREAM_CALLS_EXTENSION]: { predicted: plan.calls, limit: limits.maxUpstreamCalls },
    responseObjects: { predicted: plan.objects, limit: limits.maxResponseObjects },
    ...(fits ? { [FITS_EXTENSION]: { path: fits.path, first: fits.first } } : {}),
  });
  return { errors: [error] };
}

export function useDemandControl(limits: DemandLimits, budget?: DemandBudget): Plugin<Context> {
  /** Plans, notes the prediction, and refuses or lets the operation run (in the same tick when it can). */
  const admit = (
    args: ExecutionArgs,
    stop: (result: ExecutionResult) => void,
    hold: boolean,
  ): undefined | Promise<undefined> => {
    const scope = (args.contextValue as Context).upstreamScope;
    const settle = ({ plan, refusal, fits, reservation }: Judgement): undefined => {
      if (reservation) scope.reservation = reservation;
      // A refusal's prediction too: predicted 0 when its variables or arguments could not be planned.
      scope.ledger?.judge(plan.calls, refusal === undefined);
      if (refusal) stop(refused(refusal, plan, limits, fits));
    };
    const judged = judge(args, limits, budget, hold);
    return judged instanceof Promise ? judged.then(settle) : settle(judged);
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => admit(args, setResultAndStopExecution, true),
    onSubscribe: ({ args, setResultAndStopExecution }) => admit(args, setResultAndStopExecution, false),
  };
}
