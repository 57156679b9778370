// The contract between the transport's stages: each takes the next handler and returns its own, so
// the transport is a list of stages (see transport.ts) ending in one HTTP exchange (exchange.ts).
import type { Context as TraceContext } from '@opentelemetry/api';
import { GatewayError, UpstreamError } from '../../errors';
import type { Reservation } from '../../shared-state';
import type { CallLedger } from './ledger';
import { MESSAGES } from './messages';
import type { UpstreamRequest, UpstreamResponse } from './request';

export interface Call {
  readonly apiKey: string;
  /** Digest of apiKey (upstream-key.ts), computed once per client: the key of every per-credential state. */
  readonly digest: string;
  readonly request: UpstreamRequest;
  /** Path and query, built once (request-path.ts). */
  readonly path: string;
  /** The operation's deadline (performance.now() clock); Infinity outside an operation. */
  readonly deadline: number;
  /** The operation's ledger of upstream calls (its request's sums them); absent outside an operation. */
  readonly ledger?: CallLedger;
  /** The operation's holds in the budget (its attempts take them first); absent: none. */
  readonly reservation?: Reservation;
  /** 'poll': a read paid from the live share (CallScope.claim). */
  readonly claim?: 'poll';
  /**
   * Reads a 2xx answer's JSON into its domain shape as soon as it is parsed (exchange.ts), so the raw
   * JSON and its text are garbage at once rather than carried back up through every stage; absent:
   * the answer keeps its JSON (api/calls.ts reads it).
   */
  readonly shape?: (json: unknown) => unknown;
  /** The operation's trace context when tracing is on (stages/trace.ts); absent: no span, no traceparent. */
  readonly trace?: TraceContext;
  /** Which attempt this is: absent on the first, 2 on the first retry (stages/retry.ts). */
  readonly attempt?: number;
  /** The traced attempt's span notes and the headers that carry it upstream (stages/trace.ts). */
  readonly traced?: AttemptTrace;
}

/** A traced attempt's notes (stages/trace.ts): the headers that carry its span, and its budget wait. */
export interface AttemptTrace {
  /** traceparent (and tracestate) of the attempt's span, sent with the request. */
  readonly headers: Record<string, string>;
  /** Time spent waiting for the upstream budget (stages/budget.ts adds to it). */
  budgetWaitMs: number;
}

export type Handler = (call: Call) => Promise<UpstreamResponse>;
export type Stage = (next: Handler) => Handler;

/**
 * How far a failed attempt got:
 * - `local`: refused inside the gateway (circuit open, queue full, no time left): nothing to retry;
 * - `unsent`: the connection was never made (refused, connect timeout): the upstream saw nothing;
 * - `sent`: the request may have reached the upstream.
 */
export type Delivery = 'local' | 'unsent' | 'sent';

/** A failed attempt and how far it got; stages between the retry loop and the exchange throw these. */
export class AttemptFailure {
  constructor(
    readonly error: GatewayError,
    readonly delivery: Delivery,
  ) {}
}

/** The upstream's HTTP status of an error, when it answered. */
export const statusOf = (error: unknown): number | undefined =>
  error instanceof UpstreamError ? error.status : undefined;

/** Anything thrown below as an AttemptFailure: an unexpected error counts as sent. */
export const asFailure = (caught: unknown): AttemptFailure =>
  caught instanceof AttemptFailure
    ? caught
    : new AttemptFailure(
        caught instanceof GatewayError
          ? caught
          : new GatewayError('INTERNAL_SERVER_ERROR', MESSAGES.UNEXPECTED),
        'sent',
      );

/**
 * `next(call)`, a synchronous throw turned into a rejection: a stage that chains on the promise (no
 * async frame of its own) then always runs its cleanup, as `finally` would.
 */
export function callNext(next: Handler, call: Call): Promise<UpstreamResponse> {
  try {
    return next(call);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The stages in order, outermost first, around `last`. */
export const compose = (stages: readonly Stage[], last: Handler): Handler =>
  stages.reduceRight<Handler>((next, stage) => stage(next), last);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
