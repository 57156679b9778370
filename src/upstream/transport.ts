// The transport to the REST upstream: the stages every call passes through, in one list, ending in
// one HTTP exchange. A new concern (a rate budget, a shared store) is one stage file and one line here.

import { MemoryPauseStore, type PauseStore } from '../shared-state';
import { type CallScope, NO_SCOPE } from './call/call-scope';
import type { CircuitState, UpstreamEvents } from './call/hooks';
import type { RouteName, UpstreamRequest, UpstreamResponse } from './call/request';
import { basePathOf, requestPath } from './call/request-path';
import { AttemptFailure, compose, type Handler } from './call/stage';
import type { UpstreamKey } from './call/upstream-key';
import { Exchange, type StatusCheck } from './exchange/exchange';
import { breakerStage, CircuitBreaker } from './stages/breaker';
import { budgetStage, budgetWaitStage, type UpstreamBudget } from './stages/budget';
import { coalesceStage } from './stages/coalesce';
import { outcomeStage } from './stages/outcome';
import { CredentialPause, pauseStage, pauseWaitStage } from './stages/pause';
import { RefusedCredentials, refusalStage } from './stages/refusal';
import { reportStage } from './stages/report';
import { retryStage } from './stages/retry';
import { ConcurrencyLimiter, slotStage } from './stages/slot';
import { traceStage, type UpstreamTracing } from './stages/trace';

export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiVersion: string;
  /** Deadline of one attempt; the operation's deadline (see call/call-scope.ts) may cut it shorter. */
  readonly timeoutMs: number;
  /** Open sockets to the upstream at most. */
  readonly connections: number;
  /** Idle time after which a pooled socket is closed; keep it below the upstream's own. */
  readonly keepAliveMs: number;
  /** Retries of a failed attempt; see stages/retry.ts for which failures qualify. */
  readonly retries: number;
  /** First backoff step in ms; doubled per retry, capped at 2 s, jittered. */
  readonly retryBaseMs: number;
  /** Simultaneous upstream requests per credential. */
  readonly maxConcurrency: number;
  /** Calls per credential allowed to wait for a slot; beyond it RATE_LIMITED at once. */
  readonly queueLimit: number;
  /** Consecutive failures that open the circuit (0: no breaker). */
  readonly breakerFailureThreshold: number;
  /** How long an open circuit refuses calls before a probe. */
  readonly breakerCooldownMs: number;
  /** Largest upstream body read (UPSTREAM_MAX_BODY_BYTES). */
  readonly maxBodyBytes: number;
  /** How long a refused credential is answered without a call (0: not remembered). */
  readonly refusedCredentialTtlMs: number;
  /** Refused credentials remembered at most. */
  readonly refusedCredentialMaxEntries: number;
  /** Jitter source, [0, 1) (Math.random when omitted: tests seed it). */
  readonly random?: () => number;
  readonly events?: UpstreamEvents;
  /** The rate budget per credential (UPSTREAM_RATE_LIMIT_PER_MIN); none: calls are not budgeted. */
  readonly budget?: UpstreamBudget;
  /** Where pauses after a 429 live (Redis: shared by replicas); none: in this transport. */
  readonly pauses?: PauseStore;
  /** A span per attempt and the traceparent it sends (OTEL_EXPORTER_OTLP_ENDPOINT); none: neither. */
  readonly tracing?: UpstreamTracing;
}

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
    const events = options.events;
    this.basePath = basePathOf(options.baseUrl);
    this.exchange = new Exchange(options, this.stats);
    this.breaker = new CircuitBreaker({
      failureThreshold: options.breakerFailureThreshold,
      cooldownMs: options.breakerCooldownMs,
      onChange: (state) => events?.circuit?.(state),
    });
    this.refused = new RefusedCredentials(options.refusedCredentialMaxEntries);
    const pause = new CredentialPause(options.pauses ?? new MemoryPauseStore(), events);
    const budget = options.budget;
    const policy = {
      retries: options.retries,
      baseMs: options.retryBaseMs,
      maxDelayMs: 2_000,
      random: options.random ?? Math.random,
    };
    // Outermost first; each stage sees the call before the ones below it and their outcome after.
    this.handle = compose(
      [
        refusalStage(this.refused, options.refusedCredentialTtlMs),
        coalesceStage(this.stats, events),
        outcomeStage,
        retryStage(policy, this.stats, events),
        ...(options.tracing ? [traceStage(options.tracing, options.baseUrl)] : []),
        pauseWaitStage(pause),
        ...(budget ? [budgetWaitStage(budget, events)] : []),
        slotStage(new ConcurrencyLimiter(options.maxConcurrency, options.queueLimit), events),
        pauseStage(pause, events),
        ...(budget ? [budgetStage(budget, events)] : []),
        breakerStage(this.breaker, options.timeoutMs),
        reportStage(events),
      ],
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
