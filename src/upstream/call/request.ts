// The shape of one upstream call as every stage sees it: what to send, and what came back.

import type { Method, RouteName } from '../../resources';

export type { Method, RouteName };

export interface UpstreamRequest {
  readonly route: RouteName;
  readonly method: Method;
  /** Path segments, each encoded when the path is built: client input never reaches it unencoded. */
  readonly segments: readonly string[];
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** 'poll': sent by the live poller's walk, which claims the upstream budget after client calls. */
  readonly origin?: 'poll';
  /**
   * A command to software beyond the upstream (an agent): even an error answer without a refusal (a
   * 5xx) may come after the command went out, so its outcome is unknown (stages/outcome.ts).
   */
  readonly forwarded?: true;
}

export interface UpstreamResponse {
  readonly status: number;
  /** Parsed JSON, or undefined for an empty body (204) and for an answer already shaped. */
  readonly json: unknown;
  readonly operationId?: string;
  /**
   * The JSON read into its domain shape (by the call's `shape` as the answer was parsed, or by `read`
   * in api/calls.ts), noted on the answer itself, so that reads that joined one call (the coalesce
   * stage) share it: no second reading, no side table. `failure`: what the reading threw (a body
   * that does not fit the shape), thrown to each reader as it would have been had it read the JSON.
   */
  shaped?: Shaped;
}

/** An answer read into its domain shape by `parse`: the value, or what reading it threw. */
export type Shaped =
  | { readonly parse: unknown; readonly value: unknown; readonly failure?: undefined }
  | { readonly parse: unknown; readonly failure: { readonly error: unknown } };

/** `parse(json)`, or what it threw, kept to be thrown to each reader. */
export function shapedBy(parse: (json: unknown) => unknown, json: unknown): Shaped {
  try {
    return { parse, value: parse(json) };
  } catch (error) {
    return { parse, failure: { error } };
  }
}
