// The transport to the REST upstream: the only code that builds URLs, sends the auth and version
// headers, reads bodies and turns upstream failures into the gateway's error vocabulary.
import { createHash } from 'node:crypto';
import { Pool, errors as undiciErrors } from 'undici';
import { GatewayError, UpstreamError, type UpstreamInfo } from '../errors';

export type Method = 'GET' | 'PUT' | 'DELETE';

/** The five upstream operations; metrics and logs name routes by these, never by ids. */
export type RouteName = 'listTunnels' | 'getTunnel' | 'replaceBackend' | 'getBackend' | 'deleteBackend';

export interface UpstreamRequest {
  readonly route: RouteName;
  readonly method: Method;
  /** Path segments, each encoded here: client input never reaches the path unencoded. */
  readonly segments: readonly string[];
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
}

export interface UpstreamResponse {
  readonly status: number;
  /** Parsed JSON, or undefined for an empty body (204). */
  readonly json: unknown;
  readonly operationId?: string;
}

/** Hooks for metrics and logs; every one optional. Nothing here carries a credential or a body. */
export interface UpstreamEvents {
  /** One attempt finished: status when an answer came, the gateway error code when it failed. */
  attempt?(e: { route: RouteName; method: Method; status?: number; code?: string; durationMs: number }): void;
  /** An identical in-flight GET was joined instead of sent. */
  coalesced?(e: { route: RouteName }): void;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly timeoutMs: number;
  /** Open sockets to the upstream at most. */
  readonly connections?: number;
  readonly events?: UpstreamEvents;
}

/** Per-credential counters, read by tests and the benchmark. */
export interface TransportStats {
  requests: number;
  coalesced: number;
}

const AUTH_ERROR_CODES = new Set(
  ['200', '201', '202', '203', '204', '205', '206', '207', '208'].map((n) => `ERR_NGROK_${n}`),
);

const MESSAGES: Record<string, string> = {
  UNAUTHENTICATED: 'The ngrok API refused the credential.',
  FORBIDDEN: 'The ngrok API refused this operation for the credential.',
  BAD_USER_INPUT: 'The ngrok API refused the request as invalid.',
  RATE_LIMITED: 'The ngrok API rate limit was reached; retry later.',
  UPSTREAM_UNAVAILABLE: 'The ngrok API is unavailable.',
  UPSTREAM_TIMEOUT: 'The ngrok API did not answer in time.',
  UPSTREAM_BAD_RESPONSE: 'The ngrok API sent a response the gateway could not read.',
};

export class UpstreamTransport {
  readonly stats: TransportStats = { requests: 0, coalesced: 0 };
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly inFlight = new Map<string, Promise<UpstreamResponse>>();

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.pool = new Pool(base.origin, {
      connections: options.connections ?? 32,
      // Below the upstream's own idle timeout, so a pooled socket is never reused as the server closes it.
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Builds the path and query of a request; exported behaviour for tests through `send`. */
  pathOf(request: UpstreamRequest): string {
    const path = request.segments.map((s) => `/${encodeURIComponent(s)}`).join('');
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return `${this.basePath}${path}${qs ? `?${qs}` : ''}`;
  }

  /**
   * Sends one request with the caller's credential. Identical GETs in flight for the same
   * credential share one upstream call.
   */
  send(apiKey: string, request: UpstreamRequest): Promise<UpstreamResponse> {
    const path = this.pathOf(request);
    if (request.method !== 'GET') return this.perform(apiKey, request, path);
    const key = `${credentialKey(apiKey)} ${path}`;
    const pending = this.inFlight.get(key);
    if (pending) {
      this.stats.coalesced += 1;
      this.options.events?.coalesced?.({ route: request.route });
      return pending;
    }
    const promise = this.perform(apiKey, request, path).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async perform(apiKey: string, request: UpstreamRequest, path: string): Promise<UpstreamResponse> {
    const started = performance.now();
    const report = (status: number | undefined, code: string | undefined) =>
      this.options.events?.attempt?.({
        route: request.route,
        method: request.method,
        status,
        code,
        durationMs: performance.now() - started,
      });
    try {
      const response = await this.attempt(apiKey, request, path);
      report(response.status, undefined);
      return response;
    } catch (error) {
      report(
        error instanceof UpstreamError ? error.status : undefined,
        error instanceof GatewayError ? error.code : 'INTERNAL_SERVER_ERROR',
      );
      throw error;
    }
  }

  /** One HTTP exchange with the upstream. */
  private async attempt(apiKey: string, request: UpstreamRequest, path: string): Promise<UpstreamResponse> {
    this.stats.requests += 1;
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      'ngrok-version': this.options.apiVersion,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    let response: Awaited<ReturnType<Pool['request']>>;
    let text: string;
    try {
      response = await this.pool.request({
        method: request.method,
        path,
        headers,
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      text = await response.body.text();
    } catch (error) {
      throw transportError(error);
    }
    const operationId = headerValue(response.headers['ngrok-operation-id']);
    const info: UpstreamInfo = { status: response.statusCode, operationId };
    const json = parseJson(text, headerValue(response.headers['content-type']), info);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return { status: response.statusCode, json, operationId };
    }
    throw statusError(response.statusCode, json, info, headerValue(response.headers['retry-after']));
  }
}

/** Coalescing and caches are keyed by a digest of the credential, never the credential itself. */
export const credentialKey = (apiKey: string): string =>
  createHash('sha256').update(apiKey).digest('base64url').slice(0, 22);

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function parseJson(text: string, contentType: string | undefined, info: UpstreamInfo): unknown {
  if (text === '') return undefined;
  const isJson = contentType !== undefined && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);
  if (!isJson) {
    // An HTML error page from a proxy in front of the upstream is an outage, not a bad body.
    if (info.status !== undefined && info.status >= 500) return undefined;
    throw new UpstreamError('UPSTREAM_BAD_RESPONSE', MESSAGES.UPSTREAM_BAD_RESPONSE ?? '', {
      upstream: info,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError('UPSTREAM_BAD_RESPONSE', MESSAGES.UPSTREAM_BAD_RESPONSE ?? '', {
      upstream: info,
    });
  }
}

function errorCodeOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const code = (json as Record<string, unknown>).error_code;
  return typeof code === 'string' && /^ERR_NGROK_\d{1,6}$/.test(code) ? code : undefined;
}

function operationIdOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const details = (json as Record<string, unknown>).details;
  if (typeof details !== 'object' || details === null) return undefined;
  const id = (details as Record<string, unknown>).operation_id;
  return typeof id === 'string' && /^op_[A-Za-z0-9]{1,64}$/.test(id) ? id : undefined;
}

/** Retry-After in whole seconds, from either its delta-seconds or its HTTP-date form. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function statusError(
  status: number,
  json: unknown,
  base: UpstreamInfo,
  retryAfter: string | undefined,
): UpstreamError {
  const errorCode = errorCodeOf(json);
  const upstream: UpstreamInfo = { status, errorCode, operationId: base.operationId ?? operationIdOf(json) };
  const code =
    status === 429
      ? 'RATE_LIMITED'
      : status === 401 || (status === 403 && (errorCode === undefined || AUTH_ERROR_CODES.has(errorCode)))
        ? 'UNAUTHENTICATED'
        : status === 403
          ? 'FORBIDDEN'
          : status >= 500
            ? 'UPSTREAM_UNAVAILABLE'
            : status === 408
              ? 'UPSTREAM_TIMEOUT'
              : 'BAD_USER_INPUT';
  const message = status === 404 ? 'The ngrok API has no such resource.' : (MESSAGES[code] ?? '');
  return new UpstreamError(code, message, { upstream, retryAfter: retryAfterSeconds(retryAfter) });
}

function transportError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const timedOut =
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));
  return timedOut
    ? new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT ?? '')
    : new UpstreamError('UPSTREAM_UNAVAILABLE', MESSAGES.UPSTREAM_UNAVAILABLE ?? '');
}
