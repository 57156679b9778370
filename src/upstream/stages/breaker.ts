// A circuit breaker for one upstream: after `failureThreshold` consecutive failures (connection
// errors, timeouts, 5xx) it refuses every call for `cooldownMs`, then lets one probe through; the
// probe's outcome closes the circuit or opens it for another cool-down. The breaker stage asks its
// consent before each attempt and tells it the outcome.
import { UpstreamError } from '../../errors';
import { MIN_ATTEMPT_MS } from '../call/call-scope';
import type { CircuitState, UpstreamEvents } from '../call/hooks';
import { MESSAGES } from '../call/messages';
import { AttemptFailure, asFailure, callNext, type Stage, statusOf } from '../call/stage';

export interface BreakerOptions {
  /** Consecutive failures that open the circuit (0: no breaker). */
  readonly breakerFailureThreshold: number;
  /** How long an open circuit refuses calls before a probe. */
  readonly breakerCooldownMs: number;
  /** An attempt's own deadline: one cut shorter by the operation's says nothing of the upstream. */
  readonly timeoutMs: number;
  readonly events?: UpstreamEvents;
}

interface CircuitOptions {
  /** Consecutive failures that open the circuit; 0 turns the breaker off. */
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  readonly onChange?: (state: CircuitState) => void;
  readonly now?: () => number;
}

/** What `admit` hands out: a normal pass, or the single probe of a half-open circuit. */
export type Ticket = 'pass' | 'probe';

export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  private readonly now: () => number;

  constructor(private readonly options: CircuitOptions) {
    this.now = options.now ?? performance.now.bind(performance);
  }

  get state(): CircuitState {
    return this.current;
  }

  /** A ticket to send, or undefined when the circuit refuses the call (open, or a probe is out). */
  admit(): Ticket | undefined {
    if (this.current === 'closed') return 'pass';
    if (this.current === 'open') {
      if (this.now() - this.openedAt < this.options.cooldownMs) return undefined;
      this.set('half-open');
    }
    if (this.probing) return undefined;
    this.probing = true;
    return 'probe';
  }

  /** The outcome of a call admitted with `ticket`: `healthy` when the upstream answered sanely. */
  record(ticket: Ticket, healthy: boolean): void {
    if (this.options.failureThreshold === 0) return;
    if (ticket === 'probe') {
      this.probing = false;
      if (healthy) this.close();
      else this.open();
      return;
    }
    // Late outcomes of calls admitted before the circuit opened do not move it.
    if (this.current !== 'closed') return;
    if (healthy) {
      this.failures = 0;
      return;
    }
    this.failures += 1;
    if (this.failures >= this.options.failureThreshold) this.open();
  }

  /** Hands back a ticket whose outcome says nothing about the upstream: the tally does not move. */
  release(ticket: Ticket): void {
    if (ticket === 'probe') this.probing = false;
  }

  private open(): void {
    this.openedAt = this.now();
    this.set('open');
  }

  private close(): void {
    this.failures = 0;
    this.set('closed');
  }

  private set(state: CircuitState): void {
    if (this.current === state) return;
    this.current = state;
    this.options.onChange?.(state);
  }
}

/**
 * What an attempt's failure says about the upstream: 'failure' for what the upstream is
 * responsible for (a 5xx, a broken connection, silence for the whole UPSTREAM_TIMEOUT_MS);
 * 'neutral' for a timeout the gateway's own deadline cut short, or an attempt the gateway refused
 * unsent, which say nothing about it.
 */
function verdict(failure: AttemptFailure, fullBudget: boolean): 'healthy' | 'failure' | 'neutral' {
  // Refused below the breaker, unsent (an operation that has answered): the upstream said nothing.
  if (failure.delivery === 'local') return 'neutral';
  const status = statusOf(failure.error);
  // An answer, even a refusal, shows a working upstream.
  if (status !== undefined) return status < 500 ? 'healthy' : 'failure';
  if (failure.error.code === 'UPSTREAM_TIMEOUT') return fullBudget ? 'failure' : 'neutral';
  return failure.error.code === 'UPSTREAM_UNAVAILABLE' ? 'failure' : 'healthy';
}

/**
 * The breaker's consent before sending, and the attempt's outcome after. An attempt with too little
 * time left to succeed is not sent at all (UPSTREAM_TIMEOUT, nothing counted): one tenant's short
 * deadlines must not open the circuit for every tenant.
 */
export function breakerStage(options: BreakerOptions): { stage: Stage; breaker: CircuitBreaker } {
  const breaker = new CircuitBreaker({
    failureThreshold: options.breakerFailureThreshold,
    cooldownMs: options.breakerCooldownMs,
    onChange: (state) => options.events?.circuit?.(state),
  });
  return { stage: consenting(breaker, options.timeoutMs), breaker };
}

const consenting =
  (breaker: CircuitBreaker, timeoutMs: number): Stage =>
  (next) =>
  (call) => {
    const left = Math.floor(call.deadline - performance.now());
    if (left < Math.min(MIN_ATTEMPT_MS, timeoutMs)) {
      return Promise.reject(
        new AttemptFailure(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT), 'local'),
      );
    }
    const fullBudget = left >= timeoutMs;
    const ticket = breaker.admit();
    if (ticket === undefined) {
      return Promise.reject(
        new AttemptFailure(new UpstreamError('UPSTREAM_UNAVAILABLE', MESSAGES.CIRCUIT_OPEN), 'local'),
      );
    }
    return callNext(next, call).then(
      (response) => {
        breaker.record(ticket, true);
        return response;
      },
      (caught: unknown) => {
        const failure = asFailure(caught);
        const outcome = verdict(failure, fullBudget);
        if (outcome === 'neutral') breaker.release(ticket);
        else breaker.record(ticket, outcome === 'healthy');
        throw failure;
      },
    );
  };
