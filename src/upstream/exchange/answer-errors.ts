// An upstream error answer (status, body, headers) as the gateway's error: a table of rules, the
// first that matches names the code.
import { type ErrorCode, UpstreamError, type UpstreamInfo } from '../../errors';
import { MESSAGES } from '../call/messages';
import { retryAfterFromHeader } from './retry-after';

/** Authentication failures come back as 403 with one of these codes (observed, not documented). */
const AUTH_ERROR_CODES = new Set(
  ['200', '201', '202', '203', '204', '205', '206', '207', '208'].map((n) => `ERR_NGROK_${n}`),
);

/** The codes an error answer can map to. */
type AnswerCode = Exclude<
  ErrorCode,
  'INTERNAL_SERVER_ERROR' | 'UPSTREAM_BAD_RESPONSE' | 'OPERATION_TOO_EXPENSIVE' | 'LIVE_SNAPSHOT_TOO_LARGE'
>;

interface Rule {
  readonly matches: (status: number, errorCode: string | undefined) => boolean;
  readonly code: AnswerCode;
}

const RULES: readonly Rule[] = [
  { matches: (status) => status === 429, code: 'RATE_LIMITED' },
  { matches: (status) => status === 401, code: 'UNAUTHENTICATED' },
  {
    matches: (status, errorCode) =>
      status === 403 && (errorCode === undefined || AUTH_ERROR_CODES.has(errorCode)),
    code: 'UNAUTHENTICATED',
  },
  { matches: (status) => status === 403, code: 'FORBIDDEN' },
  { matches: (status) => status >= 500, code: 'UPSTREAM_UNAVAILABLE' },
  { matches: (status) => status === 408, code: 'UPSTREAM_TIMEOUT' },
];

/** The gateway's code for an upstream error status; any other 4xx is the request's fault. */
function codeOfAnswer(status: number, errorCode: string | undefined): AnswerCode {
  return RULES.find((rule) => rule.matches(status, errorCode))?.code ?? 'BAD_USER_INPUT';
}

const OPERATION_ID = /^op_[A-Za-z0-9]{1,64}$/;

/** An operation id as the upstream shapes them, or undefined: anything else never reaches a client. */
export const checkedOperationId = (value: string | undefined): string | undefined =>
  value !== undefined && OPERATION_ID.test(value) ? value : undefined;

const fieldOf = (json: unknown, key: string): unknown =>
  typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[key] : undefined;

function errorCodeOf(json: unknown): string | undefined {
  const code = fieldOf(json, 'error_code');
  return typeof code === 'string' && /^ERR_NGROK_\d{1,6}$/.test(code) ? code : undefined;
}

function operationIdOf(json: unknown): string | undefined {
  const id = fieldOf(fieldOf(json, 'details'), 'operation_id');
  return typeof id === 'string' ? checkedOperationId(id) : undefined;
}

/** The error for a non-2xx answer: our message, the upstream's status, code and operation id. */
export function answerError(
  status: number,
  json: unknown,
  base: UpstreamInfo,
  retryAfter: string | undefined,
): UpstreamError {
  const errorCode = errorCodeOf(json);
  const upstream: UpstreamInfo = { status, errorCode, operationId: base.operationId ?? operationIdOf(json) };
  const code = codeOfAnswer(status, errorCode);
  const message = status === 404 ? MESSAGES.NOT_FOUND : MESSAGES[code];
  const error = new UpstreamError(code, message, { upstream, retryAfter: retryAfterFromHeader(retryAfter) });
  if (status === 400) error.refusal = cleanedRefusal(fieldOf(json, 'msg'));
  return error;
}

/** Longest upstream reason kept: enough for a Traffic Policy complaint, not a page of text. */
const MAX_REFUSAL_LENGTH = 300;

/** @internal test seam: A 400's `msg`, trimmed, without control characters, length-capped; undefined when it is not text. */
export function cleanedRefusal(msg: unknown): string | undefined {
  if (typeof msg !== 'string') return undefined;
  const text = msg.replace(/\p{Cc}+/gu, ' ').trim();
  if (text === '') return undefined;
  return text.length > MAX_REFUSAL_LENGTH ? `${text.slice(0, MAX_REFUSAL_LENGTH - 1)}…` : text;
}
