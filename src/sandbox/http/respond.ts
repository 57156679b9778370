// Answers as replies computed before they are written (so a late fault can rewrite one), and the
// one place a reply reaches the socket: JSON with its operation id, a bare 204, an error body.
import type { ServerResponse } from 'node:http';
import { type ApiError, errorBody } from '../api/errors';

/** An answer computed before it is written, so faults can rewrite it. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const JSON_TYPE = 'application/json';

function operationHeader(operationId: string): Record<string, string> {
  return { 'ngrok-operation-id': operationId };
}

export function jsonReply(status: number, value: unknown, operationId: string): Reply {
  return {
    status,
    headers: { 'content-type': JSON_TYPE, ...operationHeader(operationId) },
    body: Buffer.from(JSON.stringify(value)),
  };
}

/** 204: no body and no Content-Type, but still an operation id. */
export function emptyReply(operationId: string): Reply {
  return { status: 204, headers: operationHeader(operationId), body: Buffer.alloc(0) };
}

export function errorReply(error: ApiError, operationId: string): Reply {
  const reply = jsonReply(error.status, errorBody(error, operationId), operationId);
  if (error.retryAfter !== undefined) reply.headers['retry-after'] = String(error.retryAfter);
  return reply;
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return; // the client went away while we were waiting
  // RFC 9110: a 204 carries no Content-Length.
  const length = reply.status === 204 ? {} : { 'content-length': String(reply.body.length) };
  res.writeHead(reply.status, { ...reply.headers, ...length });
  res.end(reply.body);
}
