// One HTTP exchange with the upstream over the shared pool: the auth and version headers, the
// answer read (reading.ts: within the attempt's timer, the body capped) and parsed. The only code
// that touches the socket pool.
import { Pool, errors as undiciErrors } from 'undici';
import { GatewayError, UpstreamError } from '../../errors';
import { MESSAGES } from '../call/messages';
import { shapedBy, type UpstreamResponse } from '../call/request';
import { AttemptFailure, type Call } from '../call/stage';
import { answerError } from './answer-errors';
import { type Answer, headerValue, Reading } from './reading';

export interface ExchangeOptions {
  readonly baseUrl: string;
  readonly apiVersion: string;
  /** Deadline of one attempt; the operation's deadline may cut it shorter. */
  readonly timeoutMs: number;
  /** Open sockets to the upstream at most. */
  readonly connections: number;
  /** Idle time after which a pooled socket is closed; keep it below the upstream's own. */
  readonly keepAliveMs: number;
  /** Largest body read; beyond it the connection is dropped and the answer is UPSTREAM_BAD_RESPONSE. */
  readonly maxBodyBytes: number;
}

/** What a bare status check (the readiness probe) learns. */
export type StatusCheck = { status: number } | { failure: 'timeout' | 'unreachable' };

/** Error codes of a connection that was never established: the upstream saw nothing. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export class Exchange {
  private readonly pool: Pool;

  constructor(
    private readonly options: ExchangeOptions,
    private readonly stats: { requests: number },
  ) {
    this.pool = new Pool(new URL(options.baseUrl).origin, {
      connections: options.connections,
      // Below the upstream's own idle timeout, so a pooled socket is never reused as the server closes
      // it. A shorter "Keep-Alive: timeout=N" from the upstream lowers it further (N minus 2 s).
      keepAliveTimeout: options.keepAliveMs,
      keepAliveMaxTimeout: options.keepAliveMs,
      // Each attempt's own timer (timeout.ts) ends it; these are only a backstop behind it.
      headersTimeout: options.timeoutMs * 2,
      bodyTimeout: options.timeoutMs * 2,
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    });
  }

  /** Sends the call once, within UPSTREAM_TIMEOUT_MS and the operation's deadline. */
  readonly send = async (call: Call): Promise<UpstreamResponse> => {
    this.stats.requests += 1;
    const headers = this.headers(call.apiKey);
    if (call.traced) Object.assign(headers, call.traced.headers);
    let body: string | undefined;
    if (call.request.body !== undefined) {
      body = JSON.stringify(call.request.body);
      headers['content-type'] = 'application/json';
    }
    const budget = Math.min(this.options.timeoutMs, Math.floor(call.deadline - performance.now()));
    let answer: Answer;
    try {
      answer = await new Promise<Answer>((resolve, reject) => {
        const reading = new Reading(budget, this.options.maxBodyBytes, resolve, reject);
        this.pool.dispatch({ method: call.request.method, path: call.path, headers, body }, reading);
      });
    } catch (error) {
      throw new AttemptFailure(transportError(error), neverConnected(error) ? 'unsent' : 'sent');
    }
    const { status, json, info } = answer;
    if (status >= 200 && status < 300) {
      // Read into its domain shape at once: the raw JSON goes no further than this frame.
      const shape = call.shape;
      const operationId = info.operationId;
      return shape
        ? { status, json: undefined, operationId, shaped: shapedBy(shape, json) }
        : { status, json, operationId, shaped: undefined };
    }
    const retryAfter = headerValue(answer.headers['retry-after']);
    throw new AttemptFailure(answerError(status, json, info, retryAfter), 'sent');
  };

  /** GET `path` with `apiKey` (none: no Authorization header) and learn only the status. */
  async check(path: string, apiKey: string | undefined, timeoutMs: number): Promise<StatusCheck> {
    try {
      const response = await this.pool.request({
        method: 'GET',
        path,
        headers: this.headers(apiKey),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body.dump();
      return { status: response.statusCode };
    } catch (error) {
      return { failure: transportError(error).code === 'UPSTREAM_TIMEOUT' ? 'timeout' : 'unreachable' };
    }
  }

  /** Waits for in-flight upstream calls, then closes the pool. */
  async close(): Promise<void> {
    if (!this.pool.closed && !this.pool.destroyed) await this.pool.close();
  }

  /** Aborts in-flight upstream calls and closes the pool (the bound of a graceful shutdown). */
  async destroy(): Promise<void> {
    if (!this.pool.destroyed) await this.pool.destroy();
  }

  private headers(apiKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'ngrok-version': this.options.apiVersion,
      accept: 'application/json',
    };
    if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
    return headers;
  }
}

/** True when the error says no connection was made, so the request never left the gateway. */
function neverConnected(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth += 1) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined && NOT_CONNECTED.has(code)) return true;
  }
  return false;
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
