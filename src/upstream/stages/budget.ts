// The gateway's own upstream budget (UPSTREAM_RATE_LIMIT_PER_MIN) as two transport stages. Each
// attempt claims one call from its credential's rolling window right before it is sent (after its
// slot and the pause, so every retry claims its own). A refused claim travels up to the wait stage,
// above the slot, so a waiting call holds no slot: it waits for the next free call when that fits
// the operation's deadline and claims again, or fails at once with RATE_LIMITED and the exact
// retryAfter. The live poller's calls never wait: the poller backs off by retryAfter on its own.
// An attempt of an admitted operation takes one of the holds its admission reserved, while any is left.
import { GatewayError } from '../../errors';
import {
  type ClaimKind,
  nextHold,
  type RateBudget,
  retryAfterFromMs,
  type Standing,
} from '../../shared-state';
import { MIN_ATTEMPT_MS } from '../call/call-scope';
import type { UpstreamEvents } from '../call/hooks';
import type { UpstreamResponse } from '../call/request';
import { AttemptFailure, type Call, callNext, type Stage, sleep } from '../call/stage';

interface UpstreamBudget {
  /** Per credential digest, in Redis (shared by replicas) or in this process. */
  readonly store: RateBudget;
  /** UPSTREAM_RATE_LIMIT_PER_MIN, as reported with each claim; 0: only the poller's own share is kept. */
  readonly limitPerMin: number;
}

export interface BudgetOptions {
  /** The rate budget per credential (UPSTREAM_RATE_LIMIT_PER_MIN); none: calls are not budgeted. */
  readonly budget?: UpstreamBudget;
  readonly events?: UpstreamEvents;
}

/**
 * The budget's two stages over one budget, or none without one: `wait` above the slot (a waiting
 * call holds none), `stage` right before sending.
 */
export function budgetStages(options: BudgetOptions): { wait?: Stage; stage?: Stage } {
  const budget = options.budget;
  if (budget === undefined) return {};
  return { wait: budgetWaitStage(budget, options.events), stage: budgetStage(budget, options.events) };
}

/** Whether the call claims from the budget: every call, or with the limit off only the poller's. */
const claims = (budget: UpstreamBudget, kind: ClaimKind): boolean =>
  budget.limitPerMin > 0 || kind === 'poll';

const BUDGET_MESSAGE =
  "The gateway's budget of ngrok API calls for this credential is spent for now; retry after retryAfter seconds.";

/**
 * Writes first, then client reads, then the live share: the poller's walks and live events' joins
 * (see shared-state/budget/rate-budget.ts for the shares).
 */
const kindOf = ({ request, claim }: Call): ClaimKind =>
  request.method !== 'GET' ? 'mutation' : request.origin === 'poll' || claim === 'poll' ? 'poll' : 'read';

/** A refused claim: already the RATE_LIMITED failure, so without a wait stage it fails at once. */
class BudgetRefusal extends AttemptFailure {
  constructor(
    readonly retryInMs: number,
    readonly standing: Standing,
  ) {
    super(
      new GatewayError('RATE_LIMITED', BUDGET_MESSAGE, { retryAfter: retryAfterFromMs(retryInMs) }),
      'local',
    );
  }
}

/** Claims one call for the attempt just before it is sent; a refusal is thrown to budgetWaitStage. */
const budgetStage =
  (budget: UpstreamBudget, events: UpstreamEvents | undefined): Stage =>
  (next) =>
  (call) => {
    const kind = kindOf(call);
    if (!claims(budget, kind)) return callNext(next, call);
    return budget.store.take(call.digest, kind, nextHold(call.reservation)).then((decision) => {
      if (!decision.granted) throw new BudgetRefusal(decision.retryInMs, decision.standing);
      const remaining = Math.max(0, decision.remaining);
      events?.budget?.({
        route: call.request.route,
        kind,
        outcome: 'granted',
        limit: budget.limitPerMin,
        remaining,
      });
      call.ledger?.claimed({ limit: budget.limitPerMin, ...decision.standing });
      return next(call);
    });
  };

/** Waits for the budget's next free call and tries again, or refuses with RATE_LIMITED. */
const budgetWaitStage =
  (budget: UpstreamBudget, events: UpstreamEvents | undefined): Stage =>
  (next) => {
    const limit = budget.limitPerMin;
    const waiting = async (call: Call, kind: ClaimKind): Promise<UpstreamResponse> => {
      const route = call.request.route;
      for (;;) {
        try {
          return await next(call);
        } catch (caught) {
          if (!(caught instanceof BudgetRefusal)) throw caught;
          const waitMs = caught.retryInMs;
          if (kind === 'poll' || waitMs + MIN_ATTEMPT_MS > call.deadline - performance.now()) {
            const retryAfter = caught.error.details.retryAfter;
            events?.budget?.({ route, kind, outcome: 'refused', limit, remaining: 0, retryAfter });
            call.ledger?.claimed({ limit, ...caught.standing });
            events?.rateLimited?.({ route, source: 'gateway', retryAfter });
            throw new AttemptFailure(caught.error, 'local');
          }
          events?.budget?.({ route, kind, outcome: 'waited', limit, waitMs });
          if (call.traced) call.traced.budgetWaitMs += waitMs;
          await sleep(waitMs);
        }
      }
    };
    return (call) => {
      const kind = kindOf(call);
      // Nothing claimed, nothing refused: the call goes straight on.
      return claims(budget, kind) ? waiting(call, kind) : callNext(next, call);
    };
  };
