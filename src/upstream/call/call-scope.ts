// What one GraphQL operation hands every upstream call it makes: its deadline, and the tally its
// request's log line reports. It travels as an argument (the operation's client holds it, see
// UpstreamTransport.scoped), not in AsyncLocalStorage, whose promise hooks would tax every promise
// of every request. Outside an operation (the live poller, readiness) there is no deadline.
import type { Context as TraceContext } from '@opentelemetry/api';
import type { Reservation } from '../../shared-state';

/** What one request's upstream calls did, for its log line. */
export interface UpstreamTally {
  /** HTTP calls sent (each retry is a call). */
  calls: number;
  /** GETs that joined an identical call in flight. */
  coalesced: number;
  /** Reads the read cache answered (CACHE_TTL_MS). */
  cached: number;
  retries: number;
  /** Upstream calls its operations were predicted to make at most (src/gateway/limits/), summed. */
  predicted: number;
  /** Calls its operations started: a call's resends count once, joined or cached reads not at all. */
  made: number;
  /** Where the credential stands in the gateway's upstream budget after this request's last claim. */
  budget?: UpstreamBudgetStanding;
}

/** Calls per rolling minute (UPSTREAM_RATE_LIMIT_PER_MIN) and those left for the kind last claimed. */
interface UpstreamBudgetStanding {
  readonly limit: number;
  readonly remaining: number;
}

export const newTally = (): UpstreamTally => ({
  calls: 0,
  coalesced: 0,
  cached: 0,
  retries: 0,
  predicted: 0,
  made: 0,
});

/** One operation's upstream calls: predicted before it runs, and started while it runs. */
export interface OperationCalls {
  predicted: number;
  made: number;
}

export interface CallScope {
  /**
   * The operation's deadline on the performance.now() clock; Infinity until the operation starts
   * executing (src/gateway/limits/operation-deadline.ts sets it) and outside any operation.
   */
  deadline: number;
  /** Counted into by the transport's stages; shared by the operations of one request. */
  readonly tally?: UpstreamTally;
  /** This operation's own calls (extensions.upstreamCalls); absent outside an operation. */
  readonly operation?: OperationCalls;
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

/** A scope of its own for one operation: no deadline yet, counting into `tally`. */
export const newScope = (tally?: UpstreamTally): CallScope => ({
  deadline: Number.POSITIVE_INFINITY,
  operation: { predicted: 0, made: 0 },
  ...(tally ? { tally } : {}),
});

/**
 * The scope of one observation's live joins: counted into the subscription's `tally` (its log line)
 * and into `operation` (that observation's calls), paid from the live share, no deadline of a request.
 */
export const liveJoinScope = (tally: UpstreamTally | undefined, operation: OperationCalls): CallScope => ({
  deadline: Number.POSITIVE_INFINITY,
  operation,
  claim: 'poll',
  ...(tally ? { tally } : {}),
});

/**
 * An attempt with less than this left before the operation's deadline is not made (nor waited for,
 * nor retried): it could only time out.
 */
export const MIN_ATTEMPT_MS = 100;

/** Calls made outside any operation: no deadline, counted nowhere. */
export const NO_SCOPE: Readonly<CallScope> = Object.freeze({ deadline: Number.POSITIVE_INFINITY });
