// The bookkeeping around one attempt: a slot for the credential (limiter.ts), the circuit breaker's
// consent and its tally (breaker.ts), and the attempt event for metrics.
import { GatewayError, UpstreamError } from '../errors';
import type { CircuitBreaker } from './breaker';
import type { UpstreamEvents } from './events';
import { type ConcurrencyLimiter, LimiterRejection, type Release } from './limiter';
import { MESSAGES } from './messages';
import { MIN_ATTEMPT_MS } from './retry';
import { AttemptFailure, type Stage } from './stage';

/** How long a timed-out attempt keeps its slot after the gateway gave up on it (about a round trip). */
const ABANDONED_LINGER_MS = 50;

const statusOf = (failure: AttemptFailure): number | undefined =>
  failure.error instanceof UpstreamError ? failure.error.status : undefined;

/** Anything thrown below as an AttemptFailure: an unexpected error counts as sent. */
const asFailure = (caught: unknown): AttemptFailure =>
  caught instanceof AttemptFailure
    ? caught
    : new AttemptFailure(
        caught instanceof GatewayError
          ? caught
          : new GatewayError('INTERNAL_SERVER_ERROR', MESSAGES.UNEXPECTED),
        'sent',
      );

/** A slot of the credential's share of upstream concurrency, held for the attempt. */
export const slotStage =
  (limiter: ConcurrencyLimiter, events: UpstreamEvents | undefined): Stage =>
  (next) =>
  async (call) => {
    let release: Release;
    try {
      release = await limiter.acquire(call.credential, call.deadline);
    } catch (error) {
      if (!(error instanceof LimiterRejection)) throw error;
      if (error.reason === 'deadline') {
        throw new AttemptFailure(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT), 'local');
      }
      events?.rateLimited?.({ route: call.request.route, source: 'gateway', retryAfter: 1 });
      throw new AttemptFailure(
        new GatewayError('RATE_LIMITED', MESSAGES.QUEUE_FULL, { retryAfter: 1 }),
        'local',
      );
    }
    let abandoned = false;
    try {
      return await next(call);
    } catch (caught) {
      const failure = asFailure(caught);
      abandoned =
        failure.delivery === 'sent' &&
        statusOf(failure) === undefined &&
        failure.error.code === 'UPSTREAM_TIMEOUT';
      throw failure;
    } finally {
      // The upstream counts an abandoned request until it sees the connection close: its slot is
      // held a moment longer, so the next call does not push the upstream past its own cap.
      if (abandoned) setTimeout(release, ABANDONED_LINGER_MS).unref();
      else release();
    }
  };

/**
 * What an attempt's failure says about the upstream: 'failure' for what the upstream is
 * responsible for (a 5xx, a broken connection, silence for the whole UPSTREAM_TIMEOUT_MS);
 * 'neutral' for a timeout the gateway's own deadline cut short, which says nothing about it.
 */
function verdict(failure: AttemptFailure, fullBudget: boolean): 'healthy' | 'failure' | 'neutral' {
  const status = statusOf(failure);
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
export const breakerStage =
  (breaker: CircuitBreaker, timeoutMs: number): Stage =>
  (next) =>
  async (call) => {
    const left = Math.floor(call.deadline - performance.now());
    if (left < Math.min(MIN_ATTEMPT_MS, timeoutMs)) {
      throw new AttemptFailure(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT), 'local');
    }
    const fullBudget = left >= timeoutMs;
    const ticket = breaker.admit();
    if (ticket === undefined) {
      throw new AttemptFailure(new UpstreamError('UPSTREAM_UNAVAILABLE', MESSAGES.CIRCUIT_OPEN), 'local');
    }
    let outcome: 'healthy' | 'failure' | 'neutral' = 'failure';
    try {
      const response = await next(call);
      outcome = 'healthy';
      return response;
    } catch (caught) {
      const failure = asFailure(caught);
      outcome = verdict(failure, fullBudget);
      throw failure;
    } finally {
      if (outcome === 'neutral') breaker.release(ticket);
      else breaker.record(ticket, outcome === 'healthy');
    }
  };

/** Reports every attempt sent: its status, or the error code when no answer came. */
export const reportStage =
  (events: UpstreamEvents | undefined): Stage =>
  (next) =>
  async (call) => {
    const started = performance.now();
    const report = (status: number | undefined, code: string | undefined) => {
      if (call.tally) call.tally.calls += 1;
      events?.attempt?.({
        route: call.request.route,
        method: call.request.method,
        status,
        code,
        durationMs: performance.now() - started,
      });
    };
    try {
      const response = await next(call);
      report(response.status, undefined);
      return response;
    } catch (caught) {
      const failure = asFailure(caught);
      report(statusOf(failure), failure.error.code);
      throw failure;
    }
  };
