// What one GraphQL operation hands every upstream call it makes: its deadline, and its ledger of
// upstream calls (./ledger.ts), which its request's ledger sums for the log line. It travels as an
// argument (the operation's client holds it, see UpstreamTransport.scoped), not in AsyncLocalStorage, whose promise hooks would tax every promise
// of every request. Outside an operation (the live poller, readiness) there is no deadline.
import type { Context as TraceContext } from '@opentelemetry/api';
import type { Reservation } from '../../shared-state';
import { CallLedger } from './ledger';

export interface CallScope {
  /**
   * The operation's deadline on the performance.now() clock; Infinity until the operation starts
   * executing (src/gateway/limits/operation-deadline.ts sets it) and outside any operation.
   */
  deadline: number;
  /**
   * This operation's calls, counted into by the transport's stages (and into its request's ledger):
   * extensions.upstreamCalls and upstreamBudget, the log line. Absent outside an operation.
   */
  readonly ledger?: CallLedger;
  /** The operation span's context, set when tracing is on (src/gateway/observability/tracing.ts): its calls' parent. */
  trace?: TraceContext;
  /**
   * The budget's holds on the operation's predicted calls, set when it is admitted
   * (src/gateway/limits/demand-control.ts): its calls take them (stages/budget.ts) until it ends.
   */
  reservation?: Reservation;
  /** 'poll': its reads are paid from the live share of the budget (a live event's joins), not the clients'. */
  readonly claim?: 'poll';
}

/** A scope of its own for one operation: no deadline yet, a ledger of its own counted into `request`'s. */
export const newScope = (request?: CallLedger): CallScope => ({
  deadline: Number.POSITIVE_INFINITY,
  ledger: new CallLedger(request),
});

/**
 * The scope of one observation's live joins: a ledger of that observation's calls, counted into the
 * subscriber's `request` (its log line) and told to `counted` (the metric of join calls) as each
 * starts; paid from the live share, no deadline of a request.
 */
export const liveJoinScope = (
  request: CallLedger | undefined,
  counted: ((calls: number) => void) | undefined,
): CallScope => ({
  deadline: Number.POSITIVE_INFINITY,
  ledger: new CallLedger(request, counted),
  claim: 'poll',
});

/**
 * An attempt with less than this left before the operation's deadline is not made (nor waited for,
 * nor retried): it could only time out.
 */
export const MIN_ATTEMPT_MS = 100;

/** Calls made outside any operation: no deadline, counted nowhere. */
export const NO_SCOPE: Readonly<CallScope> = Object.freeze({ deadline: Number.POSITIVE_INFINITY });
