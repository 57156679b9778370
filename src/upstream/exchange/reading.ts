// One answer read off the socket pool through undici's dispatch handler: its status, headers and
// body, the body capped at UPSTREAM_MAX_BODY_BYTES and parsed as JSON as soon as it is complete, the
// whole within the attempt's timer. No response stream, abort signal or async resource per call:
// chunks are gathered as they come.
import type { Dispatcher } from 'undici';
import { UpstreamError, type UpstreamInfo } from '../../errors';
import { MESSAGES } from '../call/messages';
import { checkedOperationId } from './answer-errors';
import { type AttemptTimeout, attemptTimeout } from './timeout';

/** What came back: the status, the headers and the body's JSON (undefined: empty, or not JSON on a 5xx). */
export interface Answer {
  readonly status: number;
  readonly headers: Dispatcher.ResponseData['headers'];
  readonly json: unknown;
  readonly info: UpstreamInfo;
}

export const headerValue = (v: string | string[] | undefined): string | undefined =>
  Array.isArray(v) ? v[0] : v;

/**
 * The handler of one dispatched request: resolves with the answer, or rejects with undici's error,
 * the timer's TimeoutError, or UPSTREAM_BAD_RESPONSE for a body over `max` bytes (declared or
 * streamed: its connection is dropped, so the heap never holds more than the cap per call).
 */
export class Reading implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the request was aborted before it reached a socket (the timer fired while it waited). */
  private early: Error | undefined;
  private readonly timeout: AttemptTimeout;
  private status = 0;
  private headers: Dispatcher.ResponseData['headers'] = {};
  private info: UpstreamInfo = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;

  constructor(
    ms: number,
    private readonly max: number,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.timeout = attemptTimeout(ms, (reason) => this.abort(reason));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.early) controller.abort(this.early);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Dispatcher.ResponseData['headers'],
  ): void {
    if (status < 200) return;
    this.status = status;
    this.headers = headers;
    this.info = { status, operationId: checkedOperationId(headerValue(headers['ngrok-operation-id'])) };
    if (Number(headerValue(headers['content-length'])) > this.max) this.tooLarge(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > this.max) this.tooLarge(controller);
    else this.chunks.push(chunk);
  }

  /** Parsed in the same tick as the last chunk: the body text dies here. */
  onResponseEnd(): void {
    if (!this.settle()) return;
    const [first] = this.chunks;
    // An answer read in one chunk (most are) is decoded in place, not copied first.
    const body = this.chunks.length === 1 && first ? first : Buffer.concat(this.chunks, this.size);
    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = parseJson(text, headerValue(this.headers['content-type']), this.info);
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve({ status: this.status, headers: this.headers, json, info: this.info });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settle()) this.reject(error);
  }

  private abort(reason: Error): void {
    if (this.controller) this.controller.abort(reason);
    else this.early = reason;
  }

  private tooLarge(controller: Dispatcher.DispatchController): void {
    if (!this.settle()) return;
    this.reject(
      new UpstreamError('UPSTREAM_BAD_RESPONSE', MESSAGES.UPSTREAM_BAD_RESPONSE, { upstream: this.info }),
    );
    controller.abort(new Error('The upstream answer is over UPSTREAM_MAX_BODY_BYTES.'));
  }

  /** True the first time: the attempt is over (its timer stops). */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.timeout.clear();
    return true;
  }
}

function parseJson(text: string, contentType: string | undefined, info: UpstreamInfo): unknown {
  if (text === '') return undefined;
  const isJson = contentType !== undefined && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);
  const unreadable = () =>
    new UpstreamError('UPSTREAM_BAD_RESPONSE', MESSAGES.UPSTREAM_BAD_RESPONSE, { upstream: info });
  if (!isJson) {
    // An HTML error page from a proxy in front of the upstream is an outage, not a bad body.
    if (info.status !== undefined && info.status >= 500) return undefined;
    throw unreadable();
  }
  try {
    return JSON.parse(text);
  } catch {
    throw unreadable();
  }
}
