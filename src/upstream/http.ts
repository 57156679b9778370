// The transport to the REST upstream: the only code that builds URLs, sends the auth and version
// headers, reads bodies and turns upstream failures into the gateway's error vocabulary.
import { createHash } from 'node:crypto';
import { Pool, errors as undiciErrors } from 'undici';
import { GatewayError, UpstreamError, type UpstreamInfo } from '../errors';
import { CircuitBreaker, type CircuitState } from './breaker';
import { currentDeadline } from './deadline';
import { ConcurrencyLimiter, LimiterRejection, type Release } from './limiter';
import { type Delivery, MIN_ATTEMPT_MS, type RetryPolicy, retryDelay } from './retry';
import { attemptTimeout } from './timeout';

export type { CircuitState } from './breaker';

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
  /**
   * One attempt sent to the upstream finished: status when an answer came, the gateway error code
   * when it failed. Calls refused inside the gateway (circuit open, queue full) send nothing and
   * report no attempt.
   */
  attempt?(e: { route: RouteName; method: Method; status?: number; code?: string; durationMs: number }): void;
  /** An identical in-flight GET was joined instead of sent. */
  coalesced?(e: { route: RouteName }): void;
  /** A read was answered by the read cache (CACHE_TTL_MS) without a call of its own. */
  cacheHit?(e: { route: RouteName }): void;
  /**
   * A failed attempt will be retried after `delayMs`. `attempt` is the number of the attempt about
   * to be made (2 for the first retry); `code` and `status` say why the previous one failed.
   */
  retry?(e: {
    route: RouteName;
    method: Method;
    attempt: number;
    delayMs: number;
    code: string;
    status?: number;
  }): void;
  /** The circuit breaker of this upstream changed state ('open': calls fail at once; 'half-open': one probe). */
  circuit?(state: CircuitState): void;
  /**
   * A call was refused for rate: by the upstream (a 429, `source: 'upstream'`, `retryAfter` from its
   * Retry-After header when sent) or by the gateway itself (`source: 'gateway'`: this credential's
   * queue of waiting calls was full, or its pause after a 429 outlasts the operation's deadline).
   */
  rateLimited?(e: { route: RouteName; source: 'upstream' | 'gateway'; retryAfter?: number }): void;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiVersion: string;
  /** Deadline of one attempt; the operation's deadline (see deadline.ts) may cut it shorter. */
  readonly timeoutMs: number;
  /** Open sockets to the upstream at most (default 32). */
  readonly connections?: number;
  /** Idle time after which a pooled socket is closed; keep it below the upstream's own (default 4000). */
  readonly keepAliveMs?: number;
  /** Retries of a failed attempt (default 2); see retry.ts for which failures qualify. */
  readonly retries?: number;
  /** First backoff step in ms (default 100); doubled per retry, capped at 2 s, jittered. */
  readonly retryBaseMs?: number;
  /** Simultaneous upstream requests per credential (default 8). */
  readonly maxConcurrency?: number;
  /** Calls per credential allowed to wait for a slot (default 100); beyond it RATE_LIMITED at once. */
  readonly queueLimit?: number;
  /** Consecutive failures that open the circuit (default 5; 0: no breaker). */
  readonly breakerFailureThreshold?: number;
  /** How long an open circuit refuses calls before a probe (default 10000). */
  readonly breakerCooldownMs?: number;
  /** Jitter source, [0, 1) (default Math.random). */
  readonly random?: () => number;
  readonly events?: UpstreamEvents;
}

/** Counters read by tests and the benchmark. */
export interface TransportStats {
  /** Attempts actually sent to the upstream. */
  requests: number;
  coalesced: number;
  retries: number;
}

const AUTH_ERROR_CODES = new Set(
  ['200', '201', '202', '203', '204', '205', '206', '207', '208'].map((n) => `ERR_NGROK_${n}`),
);

const MESSAGES = {
  UNAUTHENTICATED: 'The ngrok API refused the credential.',
  FORBIDDEN: 'The ngrok API refused this operation for the credential.',
  BAD_USER_INPUT: 'The ngrok API refused the request as invalid.',
  RATE_LIMITED: 'The ngrok API rate limit was reached; retry later.',
  UPSTREAM_UNAVAILABLE: 'The ngrok API is unavailable.',
  UPSTREAM_TIMEOUT: 'The ngrok API did not answer in time.',
  UPSTREAM_BAD_RESPONSE: 'The ngrok API sent a response the gateway could not read.',
  CIRCUIT_OPEN: 'The ngrok API is failing; the gateway pauses calls to it for a moment. Retry shortly.',
  QUEUE_FULL: 'Too many simultaneous ngrok API calls for this credential; retry shortly.',
  PAUSED:
    'The ngrok API rate-limited this credential; the gateway sends nothing for it until Retry-After has passed.',
} as const;

/** Error codes of a connection that was never established: the upstream saw nothing. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A failed attempt and how far it got; internal to the retry loop. */
class AttemptFailure {
  constructor(
    readonly error: GatewayError,
    readonly delivery: Delivery,
  ) {}
}

/** The longest pause after a 429 that the gateway keeps: the upstream's rate window is 60 s. */
const MAX_PAUSE_MS = 60_000;

/** How long a timed-out attempt keeps its slot after the gateway gave up on it (about a round trip). */
const ABANDONED_LINGER_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class UpstreamTransport {
  readonly stats: TransportStats = { requests: 0, coalesced: 0, retries: 0 };
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly inFlight = new Map<string, Promise<UpstreamResponse>>();
  private readonly policy: RetryPolicy;
  private readonly limiter: ConcurrencyLimiter;
  private readonly breaker: CircuitBreaker;
  /**
   * Credentials the upstream rate-limited with a Retry-After, and until when (performance.now()):
   * until then no call is sent for them, so a burst of clients does not spend the next window's
   * quota on requests that could only be refused again.
   */
  private readonly pausedUntil = new Map<string, number>();

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.pool = new Pool(base.origin, {
      connections: options.connections ?? 32,
      // Below the upstream's own idle timeout, so a pooled socket is never reused as the server closes
      // it. A shorter "Keep-Alive: timeout=N" from the upstream lowers it further (N minus 2 s).
      keepAliveTimeout: options.keepAliveMs ?? 4_000,
      keepAliveMaxTimeout: options.keepAliveMs ?? 4_000,
      // Each attempt's own timer (timeout.ts) ends it; these are only a backstop behind it.
      headersTimeout: options.timeoutMs * 2,
      bodyTimeout: options.timeoutMs * 2,
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    });
    this.policy = {
      retries: options.retries ?? 2,
      baseMs: options.retryBaseMs ?? 100,
      maxDelayMs: 2_000,
      random: options.random ?? Math.random,
    };
    this.limiter = new ConcurrencyLimiter(options.maxConcurrency ?? 8, options.queueLimit ?? 100);
    this.breaker = new CircuitBreaker({
      failureThreshold: options.breakerFailureThreshold ?? 5,
      cooldownMs: options.breakerCooldownMs ?? 10_000,
      onChange: (state) => options.events?.circuit?.(state),
    });
  }

  /** The circuit breaker's state (health checks, tests). */
  get circuit(): CircuitState {
    return this.breaker.state;
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
   * Sends one request with the caller's credential, retrying as retry.ts allows within the
   * operation's deadline. Identical GETs in flight for the same credential share one upstream call.
   */
  send(apiKey: string, request: UpstreamRequest): Promise<UpstreamResponse> {
    const path = this.pathOf(request);
    const credential = credentialKey(apiKey);
    if (request.method !== 'GET') {
      // A read that starts once a write has begun must not join an answer that may predate it.
      this.forgetReads(credential);
      return this.perform(apiKey, credential, request, path).finally(() => this.forgetReads(credential));
    }
    const key = `${credential} ${path}`;
    const pending = this.inFlight.get(key);
    if (pending) {
      this.stats.coalesced += 1;
      this.options.events?.coalesced?.({ route: request.route });
      // The call keeps the deadline of the operation that started it; this one may end sooner.
      return untilDeadline(pending, currentDeadline());
    }
    const promise: Promise<UpstreamResponse> = this.perform(apiKey, credential, request, path).finally(() => {
      if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
    });
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Detaches this credential's in-flight reads: their callers still get them, later reads do not. */
  private forgetReads(credential: string): void {
    const prefix = `${credential} `;
    for (const key of this.inFlight.keys()) if (key.startsWith(prefix)) this.inFlight.delete(key);
  }

  /** Reports a read the cache above this transport answered (see upstream/index.ts). */
  noteCacheHit(route: RouteName): void {
    this.options.events?.cacheHit?.({ route });
  }

  /** Waits for in-flight upstream calls, then closes the pool. */
  async close(): Promise<void> {
    if (!this.pool.closed && !this.pool.destroyed) await this.pool.close();
  }

  /** Aborts in-flight upstream calls and closes the pool (the bound of a graceful shutdown). */
  async destroy(): Promise<void> {
    if (!this.pool.destroyed) await this.pool.destroy();
  }

  /** The attempts of one call: as many as the retry policy and the deadline allow. */
  private async perform(
    apiKey: string,
    credential: string,
    request: UpstreamRequest,
    path: string,
  ): Promise<UpstreamResponse> {
    const deadline = currentDeadline();
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.waitOutPause(credential, request, deadline);
        return await this.attempt(apiKey, credential, request, path, deadline);
      } catch (caught) {
        if (!(caught instanceof AttemptFailure)) throw caught;
        const { error, delivery } = caught;
        const status = error instanceof UpstreamError ? error.status : undefined;
        const delayMs = retryDelay(this.policy, {
          method: request.method,
          code: error.code,
          status,
          retryAfter: error.details.retryAfter,
          delivery,
          attempt,
          remainingMs: deadline - performance.now(),
        });
        if (delayMs === undefined) throw error;
        this.stats.retries += 1;
        this.options.events?.retry?.({
          route: request.route,
          method: request.method,
          attempt: attempt + 1,
          delayMs,
          code: error.code,
          status,
        });
        if (delayMs > 0) await sleep(delayMs);
      }
    }
  }

  /** Milliseconds left of the credential's pause after a 429; 0 when it has none. */
  private pauseLeft(credential: string): number {
    const until = this.pausedUntil.get(credential);
    if (until === undefined) return 0;
    const left = until - performance.now();
    if (left <= 0) this.pausedUntil.delete(credential);
    return Math.max(0, left);
  }

  /** Starts (or lengthens) the credential's pause: the upstream asked for `seconds` of quiet. */
  private pause(credential: string, seconds: number): void {
    const now = performance.now();
    for (const [key, until] of this.pausedUntil) if (until <= now) this.pausedUntil.delete(key);
    const until = now + Math.min(seconds * 1000, MAX_PAUSE_MS);
    if (until > (this.pausedUntil.get(credential) ?? 0)) this.pausedUntil.set(credential, until);
  }

  /**
   * Waits until the credential's pause is over, or refuses the call at once with RATE_LIMITED (and
   * the seconds left as retryAfter) when the pause outlasts the operation's deadline.
   */
  private async waitOutPause(credential: string, request: UpstreamRequest, deadline: number): Promise<void> {
    const left = this.pauseLeft(credential);
    if (left === 0) return;
    if (left + MIN_ATTEMPT_MS > deadline - performance.now()) {
      const retryAfter = Math.ceil(left / 1000);
      this.options.events?.rateLimited?.({ route: request.route, source: 'gateway', retryAfter });
      throw new GatewayError('RATE_LIMITED', MESSAGES.PAUSED, { retryAfter });
    }
    await sleep(left);
  }

  /** One attempt: a slot for the credential, the breaker's consent, then one HTTP exchange. */
  private async attempt(
    apiKey: string,
    credential: string,
    request: UpstreamRequest,
    path: string,
    deadline: number,
  ): Promise<UpstreamResponse> {
    let release: Release;
    try {
      release = await this.limiter.acquire(credential, deadline);
    } catch (error) {
      if (!(error instanceof LimiterRejection)) throw error;
      if (error.reason === 'deadline') {
        throw new AttemptFailure(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT), 'local');
      }
      this.options.events?.rateLimited?.({ route: request.route, source: 'gateway', retryAfter: 1 });
      throw new AttemptFailure(
        new GatewayError('RATE_LIMITED', MESSAGES.QUEUE_FULL, { retryAfter: 1 }),
        'local',
      );
    }
    let abandoned = false;
    try {
      // A 429 for this credential may have come while this call waited for its slot.
      await this.waitOutPause(credential, request, deadline);
      const budget = Math.min(this.options.timeoutMs, Math.floor(deadline - performance.now()));
      if (budget <= 0) {
        throw new AttemptFailure(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT), 'local');
      }
      const ticket = this.breaker.admit();
      if (ticket === undefined) {
        throw new AttemptFailure(new UpstreamError('UPSTREAM_UNAVAILABLE', MESSAGES.CIRCUIT_OPEN), 'local');
      }
      const started = performance.now();
      let healthy = false;
      try {
        const response = await this.exchange(apiKey, request, path, budget);
        healthy = true;
        this.report(request, started, response.status, undefined);
        return response;
      } catch (caught) {
        const failure =
          caught instanceof AttemptFailure ? caught : new AttemptFailure(toGatewayError(caught), 'sent');
        const { error } = failure;
        const status = error instanceof UpstreamError ? error.status : undefined;
        // An answer, even a refusal, shows a working upstream; silence, resets and 5xx do not.
        healthy = status !== undefined && status < 500;
        abandoned = failure.delivery === 'sent' && status === undefined && error.code === 'UPSTREAM_TIMEOUT';
        if (status === 429) {
          if (error.details.retryAfter) this.pause(credential, error.details.retryAfter);
          this.options.events?.rateLimited?.({
            route: request.route,
            source: 'upstream',
            retryAfter: error.details.retryAfter,
          });
        }
        this.report(request, started, status, error.code);
        throw failure;
      } finally {
        this.breaker.record(ticket, healthy);
      }
    } finally {
      // The upstream counts an abandoned request until it sees the connection close: its slot is
      // held a moment longer, so the next call does not push the upstream past its own cap.
      if (abandoned) setTimeout(release, ABANDONED_LINGER_MS).unref();
      else release();
    }
  }

  private report(
    request: UpstreamRequest,
    started: number,
    status: number | undefined,
    code: string | undefined,
  ) {
    this.options.events?.attempt?.({
      route: request.route,
      method: request.method,
      status,
      code,
      durationMs: performance.now() - started,
    });
  }

  /** One HTTP exchange with the upstream. */
  private async exchange(
    apiKey: string,
    request: UpstreamRequest,
    path: string,
    budgetMs: number,
  ): Promise<UpstreamResponse> {
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
    const timeout = attemptTimeout(budgetMs);
    try {
      response = await this.pool.request({
        method: request.method,
        path,
        headers,
        body,
        signal: timeout.signal,
      });
      text = await response.body.text();
    } catch (error) {
      throw new AttemptFailure(transportError(error), neverConnected(error) ? 'unsent' : 'sent');
    } finally {
      timeout.clear();
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

/** Resolves or rejects as `promise` does, or rejects with UPSTREAM_TIMEOUT at `deadline`. */
function untilDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  if (!Number.isFinite(deadline)) return promise;
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT)),
      Math.max(0, deadline - performance.now()),
    );
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}

function toGatewayError(error: unknown): GatewayError {
  return error instanceof GatewayError
    ? error
    : new GatewayError('INTERNAL_SERVER_ERROR', 'Unexpected error while calling the ngrok API.');
}

/** True when the error says no connection was made, so the request never left the gateway. */
function neverConnected(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth += 1) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined && NOT_CONNECTED.has(code)) return true;
  }
  return false;
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
    throw new UpstreamError('UPSTREAM_BAD_RESPONSE', MESSAGES.UPSTREAM_BAD_RESPONSE, {
      upstream: info,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError('UPSTREAM_BAD_RESPONSE', MESSAGES.UPSTREAM_BAD_RESPONSE, {
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
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(value.trim())) return undefined;
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
  const message = status === 404 ? 'The ngrok API has no such resource.' : MESSAGES[code];
  return new UpstreamError(code, message, { upstream, retryAfter: retryAfterSeconds(retryAfter) });
}

function transportError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const timedOut =
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));
  return timedOut
    ? new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT)
    : new UpstreamError('UPSTREAM_UNAVAILABLE', MESSAGES.UPSTREAM_UNAVAILABLE);
}
