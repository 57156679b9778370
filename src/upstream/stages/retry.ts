// When a failed upstream attempt is worth another try, and after how long (a pure policy), and the
// retry loop that asks it: the attempts of one call, as many as the policy and the deadline allow.
import type { ErrorCode } from '../../errors';
import { MIN_ATTEMPT_MS } from '../call/call-scope';
import type { UpstreamEvents } from '../call/hooks';
import type { UpstreamResponse } from '../call/request';
import { AttemptFailure, callNext, type Delivery, type Stage, sleep, statusOf } from '../call/stage';

/** @internal test seam */
export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  readonly retries: number;
  /** The first backoff step; each retry doubles it, up to maxDelayMs. */
  readonly baseMs: number;
  readonly maxDelayMs: number;
  /** [0, 1); Math.random in production, seeded in tests. */
  readonly random: () => number;
}

/** @internal test seam */
export interface FailedAttempt {
  readonly method: string;
  readonly code: ErrorCode;
  /** The upstream's HTTP status, when it answered. */
  readonly status?: number;
  /** Seconds from the upstream's Retry-After header. */
  readonly retryAfter?: number;
  readonly delivery: Delivery;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Time left before the operation's deadline (Infinity without one). */
  readonly remainingMs: number;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** Reads are retried on connection errors, 502/503/504 and 429; writes only when never sent. */
function isRetryable(f: FailedAttempt): boolean {
  if (f.delivery === 'local') return false;
  if (f.delivery === 'unsent') return true;
  if (f.method !== 'GET') return false;
  if (f.status !== undefined) return RETRYABLE_STATUS.has(f.status);
  // No status: the connection failed after sending (reset, dropped). A timeout is not retried:
  // the upstream is slow, and a second wait would only double the client's.
  return f.code === 'UPSTREAM_UNAVAILABLE';
}

/** @internal test seam: Jittered exponential backoff: half the step fixed, half random, so retries of many clients spread. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + policy.random() * (step / 2));
}

/** @internal test seam: Milliseconds to wait before the next attempt, or undefined to give up with this failure. */
export function retryDelay(policy: RetryPolicy, f: FailedAttempt): number | undefined {
  if (f.attempt > policy.retries || !isRetryable(f)) return undefined;
  // The upstream's Retry-After wins over our own backoff; when it does not fit the deadline the
  // client gets RATE_LIMITED with it at once instead of a timeout later.
  const delay = f.retryAfter !== undefined ? f.retryAfter * 1000 : backoffMs(policy, f.attempt);
  return delay + MIN_ATTEMPT_MS > f.remainingMs ? undefined : delay;
}

export interface RetryOptions {
  /** Retries of a failed attempt; see isRetryable for which failures qualify. */
  readonly retries: number;
  /** First backoff step in ms; doubled per retry, capped at 2 s, jittered. */
  readonly retryBaseMs: number;
  /** Jitter source, [0, 1) (Math.random when omitted: tests seed it). */
  readonly random?: () => number;
  readonly events?: UpstreamEvents;
}

/** The retry loop over the options' policy; `stats` counts the transport's retries. */
export const retryStage = (options: RetryOptions, stats: { retries: number }): Stage =>
  retrying(
    {
      retries: options.retries,
      baseMs: options.retryBaseMs,
      maxDelayMs: 2_000,
      random: options.random ?? Math.random,
    },
    stats,
    options.events,
  );

/** The retry loop as a stage: failed attempts (AttemptFailure) are tried again while the policy allows. */
function retrying(
  policy: RetryPolicy,
  stats: { retries: number },
  events: UpstreamEvents | undefined,
): Stage {
  return (next) => (call) => {
    // Each attempt chains on the one before: no async frame, nothing more on the first's way.
    const tryAttempt = (attempt: number): Promise<UpstreamResponse> =>
      callNext(next, attempt === 1 ? call : { ...call, attempt }).catch((caught: unknown) => {
        if (!(caught instanceof AttemptFailure)) throw caught;
        const { error, delivery } = caught;
        const status = statusOf(error);
        const delayMs = retryDelay(policy, {
          method: call.request.method,
          code: error.code,
          status,
          retryAfter: error.details.retryAfter,
          delivery,
          attempt,
          remainingMs: call.deadline - performance.now(),
        });
        if (delayMs === undefined) throw caught;
        stats.retries += 1;
        call.ledger?.retried();
        events?.retry?.({
          route: call.request.route,
          method: call.request.method,
          attempt: attempt + 1,
          delayMs,
          code: error.code,
          status,
        });
        return delayMs > 0 ? sleep(delayMs).then(() => tryAttempt(attempt + 1)) : tryAttempt(attempt + 1);
      });
    return tryAttempt(1);
  };
}
