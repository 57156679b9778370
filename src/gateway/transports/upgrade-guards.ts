// A browser lets any page open a WebSocket to any address (it sends the page's Origin, but no CORS
// applies), so a WebSocket upgrade is judged as an HTTP request is, before the socket opens: the
// gateway's Host and Origin guards, then the credential of its Authorization header. A refusal is an
// HTTP answer with the same status and JSON body as over HTTP, never an open socket.
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../../config';
import { GatewayError } from '../../errors';
import { callerOf } from '../security/credentials';
import { type Refusal, type RequestGuard, refusalOf, refusalParts } from '../security/refusal';
import { AUTH_CHALLENGE } from '../security/refusal-headers';

/** Headers about the WebSocket handshake itself, not the caller: operations do not carry them. */
const HANDSHAKE_HEADERS = /^(?:connection|upgrade|sec-websocket-.+|content-length|transfer-encoding)$/;

/** The upgrade request's headers (Host, Origin, Authorization, …) as Fetch Headers. */
export function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HANDSHAKE_HEADERS.test(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/**
 * The refusal of a credential that is malformed or not a known gateway token (401), as over HTTP;
 * undefined when it is valid or absent (a missing one is refused per operation, as over HTTP).
 */
export function credentialRefusal(authorization: string | null, config: Config): Refusal | undefined {
  try {
    callerOf(authorization, config);
    return undefined;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return {
      status: error.details.httpStatus ?? 401,
      code: error.code,
      message: error.message,
      headers: { 'www-authenticate': AUTH_CHALLENGE },
    };
  }
}

/** Why an upgrade is refused: a guard's refusal first, then its Authorization header's. */
export function upgradeRefusal(
  guards: readonly RequestGuard[],
  config: Config,
  headers: Headers,
): Refusal | undefined {
  return refusalOf(guards, headers) ?? credentialRefusal(headers.get('authorization'), config);
}

/** Answers a refused upgrade on its raw socket (an upgrade has no ServerResponse), then closes it. */
export function refuseUpgrade(socket: Duplex, refused: Refusal, accept: string | null): void {
  const { headers, body } = refusalParts(refused, accept);
  const lines = Object.entries({
    ...headers,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  // A client that resets meanwhile must not raise an unhandled 'error'.
  socket.on('error', () => socket.destroy());
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status]}\r\n${lines.join('')}\r\n${body}`);
}
