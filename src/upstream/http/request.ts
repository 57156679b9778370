// The shape of one upstream call as every stage sees it: what to send, and what came back.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The upstream operations; metrics and logs name routes by these, never by ids. */
export type RouteName =
  | 'listTunnels'
  | 'getTunnel'
  | 'replaceBackend'
  | 'getBackend'
  | 'deleteBackend'
  | 'listEndpoints'
  | 'getEndpoint'
  | 'createEndpoint'
  | 'updateEndpoint'
  | 'deleteEndpoint';

export interface UpstreamRequest {
  readonly route: RouteName;
  readonly method: Method;
  /** Path segments, each encoded when the path is built: client input never reaches it unencoded. */
  readonly segments: readonly string[];
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** 'poll': sent by the live poller's walk, which claims the upstream budget after client calls. */
  readonly origin?: 'poll';
}

export interface UpstreamResponse {
  readonly status: number;
  /** Parsed JSON, or undefined for an empty body (204). */
  readonly json: unknown;
  readonly operationId?: string;
}
