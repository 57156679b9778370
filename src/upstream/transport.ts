// The transport to the REST upstream: the stages every call passes through, in one list, ending in
// one HTTP exchange. A new concern (a rate budget, a shared store) is one stage file, owning its state
// and its options type, and two lines here: its options in TransportOptions, its stage in the list.

import { type CallScope, NO_SCOPE } from './call/call-scope';
import type { CircuitState, UpstreamEvents } from './call/hooks';
import type { RouteName, UpstreamRequest, UpstreamResponse } from './call/request';
import { basePathOf, requestPath } from './call/request-path';
import { AttemptFailure, compose, type Handler, type Stage } from './call/stage';
import type { UpstreamKey } from './call/upstream-key';
import { Exchange, type ExchangeOptions, type StatusCheck } from './exchange/exchange';
import { type BreakerOptions, breakerStage, type CircuitBreaker } from './stages/breaker';
import { type BudgetOptions, budgetStages } from './stages/budget';
import { type CoalesceOptions, coalesceStage } from './stages/coalesce';
import { outcomeStage } from './stages/outcome';
import { type PauseOptions, pauseStages } from './stages/pause';
import { type RefusalOptions, type RefusedCredentials, refusalStage } from './stages/refusal';
import { reportStage } from './stages/report';
import { type RetryOptions, retryStage } from './stages/retry';
import { type SlotOptions, slotStage } from './stages/slot';
import { type TraceOptions, traceStage } from './stages/trace';

/**
 * Every stage's options side by side, each declared in its stage's file (which builds the state it
 * keeps from them): callers write one flat bag, each stage reads its own fields.
 */
export type TransportOptions = ExchangeOptions &
  RefusalOptions &
  CoalesceOptions &
  RetryOptions &
  TraceOptions &
  PauseOptions &
  BudgetOptions &
  SlotOptions &
  BreakerOptions & {
    /** The metric hooks every stage reports to (call/hooks.ts). */
    readonly events?: UpstreamEvents;
  };

/** What the readiness check learns: the answer's status, or why none came. */
export type ReadinessCheck = StatusCheck | { failure: 'circuit open' };

/** Counters read by tests and the benchmark. */
export interface TransportStats {
  /** Attempts actually sent to the upstream. */
  requests: number;
  coalesced: number;
  retries: number;
}

/** A failed attempt leaves the transport as its error (the stages' AttemptFailure stays inside). */
const unwrap = (caught: unknown): never => {
  throw caught instanceof AttemptFailure ? caught.error : caught;
};

export class UpstreamTransport {
  readonly stats: TransportStats = { requests: 0, coalesced: 0, retries: 0 };
  /** The operation's deadline and ledger, on a view made by `scoped`; none on the transport itself. */
  private scope: CallScope = NO_SCOPE;
  private readonly basePath: string;
  private readonly breaker: CircuitBreaker;
  private readonly exchange: Exchange;
  private readonly handle: Handler;
  private readonly refused: RefusedCredentials;

  constructor(private readonly options: TransportOptions) {
    this.basePath = basePathOf(options.baseUrl);
    this.exchange = new Exchange(options, this.stats);
    const refusal = refusalStage(options);
    const pause = pauseStages(options);
    const budget = budgetStages(options);
    const breaker = breakerStage(options);
    this.refused = refusal.refused;
    this.breaker = breaker.breaker;
    // Outermost first; each stage sees the call before the ones below it and their outcome after.
    // Optional stages (tracing, the budget) are left out when not configured.
    this.handle = compose(
      [
        refusal.stage,
        coalesceStage(options, this.stats),
        outcomeStage,
        retryStage(options, this.stats),
        traceStage(options),
        pause.wait,
        budget.wait,
        slotStage(options),
        pause.stage,
        budget.stage,
        breaker.stage,
        reportStage(options.events),
      ].filter((stage): stage is Stage => stage !== undefined),
      this.exchange.send,
    );
  }

  /** The circuit breaker's state (health checks, tests). */
  get circuit(): CircuitState {
    return this.breaker.state;
  }

  /** Refused credentials remembered now (bounded by refusedCredentialMaxEntries). */
  get refusedCredentials(): number {
    return this.refused.size;
  }

  /** The path and query a request is sent to (the read cache keys by it). */
  pathOf(request: UpstreamRequest): string {
    return requestPath(this.basePath, request);
  }

  /**
   * Sends one request with the caller's API key, retrying as stages/retry.ts allows within the
   * operation's deadline (the scope of a `scoped` view). Identical GETs in flight for the same key
   * (and the same `shape`) share one upstream call; every stage keys its state by the key's digest,
   * computed once (call/upstream-key.ts). `shape` reads a 2xx answer into its domain shape as soon as
   * it is parsed (see Call.shape).
   */
  send(
    key: UpstreamKey,
    request: UpstreamRequest,
    shape?: (json: unknown) => unknown,
  ): Promise<UpstreamResponse> {
    const scope = this.scope;
    const call = {
      apiKey: key.apiKey,
      digest: key.digest,
      request,
      path: this.pathOf(request),
      deadline: scope.deadline,
      ledger: scope.ledger,
      claim: scope.claim,
      trace: scope.trace,
      reservation: scope.reservation,
      shape,
    };
    return this.handle(call).catch(unwrap);
  }

  /**
   * The readiness check: one cheap read (READINESS_REQUEST, api/tunnels.ts) through the pool and the
   * breaker, no retry, no queue. `apiKey` undefined sends none (pass-through mode).
   */
  async checkReadiness(
    request: UpstreamRequest,
    apiKey: string | undefined,
    timeoutMs: number,
  ): Promise<ReadinessCheck> {
    const ticket = this.breaker.admit();
    if (ticket === undefined) return { failure: 'circuit open' };
    const path = this.pathOf(request);
    const result = await this.exchange.check(path, apiKey, timeoutMs);
    if ('status' in result) this.breaker.record(ticket, result.status < 500);
    else if (result.failure === 'unreachable') this.breaker.record(ticket, false);
    // A probe's short timeout says little about the upstream: it does not move the breaker.
    else this.breaker.release(ticket);
    return result;
  }

  /** Reports a read the cache above this transport answered (see client.ts). */
  noteCacheHit(route: RouteName): void {
    this.scope.ledger?.answeredFromCache();
    this.options.events?.cacheHit?.({ route });
  }

  /**
   * This transport as one operation's client sees it: every call it sends, and every read the cache
   * answers for it, carries the operation's scope (deadline, ledger). One small object per operation,
   * no closures: the view differs from the transport by its scope alone.
   */
  scoped(scope: CallScope): UpstreamTransport {
    const view = Object.create(this) as UpstreamTransport;
    view.scope = scope;
    return view;
  }

  /** Waits for in-flight upstream calls, then closes the pool. */
  close(): Promise<void> {
    return this.exchange.close();
  }

  /** Aborts in-flight upstream calls and closes the pool (the bound of a graceful shutdown). */
  destroy(): Promise<void> {
    return this.exchange.destroy();
  }
}
