// The contract between the transport's stages: each takes the next handler and returns its own, so
// the transport is a list of stages (see transport.ts) ending in one HTTP exchange.
import type { Context as TraceContext } from '@opentelemetry/api';
import type { GatewayError } from '../errors';
import type { UpstreamRequest, UpstreamResponse } from './call';
import type { UpstreamTally } from './deadline';
import type { Delivery } from './retry';
import type { AttemptTrace } from './trace';

export interface Call {
  readonly apiKey: string;
  /** Digest of apiKey: the key of every per-credential state. */
  readonly credential: string;
  readonly request: UpstreamRequest;
  /** Path and query, built once (request-path.ts). */
  readonly path: string;
  /** The operation's deadline (performance.now() clock); Infinity outside an operation. */
  readonly deadline: number;
  /** The request's tally of upstream work (its log line); absent outside a request. */
  readonly tally?: UpstreamTally;
  /** The operation's trace context when tracing is on (trace.ts); absent: no span, no traceparent. */
  readonly trace?: TraceContext;
  /** Which attempt this is: absent on the first, 2 on the first retry (retry.ts). */
  readonly attempt?: number;
  /** The traced attempt's span notes and the headers that carry it upstream (trace.ts). */
  readonly traced?: AttemptTrace;
}

export type Handler = (call: Call) => Promise<UpstreamResponse>;
export type Stage = (next: Handler) => Handler;

/** A failed attempt and how far it got; stages between the retry loop and the exchange throw these. */
export class AttemptFailure {
  constructor(
    readonly error: GatewayError,
    readonly delivery: Delivery,
  ) {}
}

/** The stages in order, outermost first, around `last`. */
export const compose = (stages: readonly Stage[], last: Handler): Handler =>
  stages.reduceRight<Handler>((next, stage) => stage(next), last);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
