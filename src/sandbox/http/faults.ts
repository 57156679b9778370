// Faults come in two kinds. "Early" ones replace the upstream entirely (no auth, no side effect):
// an error status, a 429, a proxy's HTML page, a dropped or hanging connection. "Late" ones let
// the request run (state changes happen) and then damage the answer on its way out.
import type { ServerResponse } from 'node:http';
import { injectedError } from '../api/errors';
import { type Fault, ROUTE_NAMES, type RouteName } from '../types';
import { errorReply, type Reply } from './respond';

type EarlyFault = Extract<Fault, { kind: 'status' | 'rateLimit' | 'html' | 'drop' | 'hang' | 'largeBody' }>;
type LargeBody = Extract<Fault, { kind: 'largeBody' }>;
type LateFault = Extract<
  Fault,
  { kind: 'malformedJson' | 'truncatedJson' | 'wrongContentType' | 'missingField' }
>;

const EARLY_KINDS: ReadonlySet<string> = new Set([
  'status',
  'rateLimit',
  'html',
  'drop',
  'hang',
  'largeBody',
]);
const LATE_KINDS: ReadonlySet<string> = new Set([
  'malformedJson',
  'truncatedJson',
  'wrongContentType',
  'missingField',
]);

/** The field `missingField` removes from a successful body, per route. */
const REQUIRED_FIELD: Readonly<Record<RouteName, string>> = {
  listTunnels: 'tunnels',
  getTunnel: 'id',
  replaceBackend: 'enabled',
  getBackend: 'enabled',
  deleteBackend: 'enabled',
  listEndpoints: 'endpoints',
  createEndpoint: 'id',
  getEndpoint: 'id',
  updateEndpoint: 'id',
  deleteEndpoint: 'id',
  listTunnelSessions: 'tunnel_sessions',
  getTunnelSession: 'id',
  restartTunnelSession: 'id',
  stopTunnelSession: 'id',
  updateTunnelSession: 'id',
  listReservedDomains: 'reserved_domains',
  getReservedDomain: 'id',
  listReservedAddrs: 'reserved_addrs',
  getReservedAddr: 'id',
  listCredentials: 'credentials',
  getCredential: 'id',
  listTlsCertificates: 'tls_certificates',
  getTlsCertificate: 'id',
  listHttpsEdges: 'https_edges',
  getHttpsEdge: 'id',
  listTunnelGroupBackends: 'backends',
  getTunnelGroupBackend: 'id',
  listFailoverBackends: 'backends',
  getFailoverBackend: 'id',
  listWeightedBackends: 'backends',
  getWeightedBackend: 'id',
  listHttpResponseBackends: 'backends',
  getHttpResponseBackend: 'id',
  listStaticBackends: 'backends',
  getStaticBackend: 'id',
};

export function isEarly(fault: Fault): fault is EarlyFault {
  return EARLY_KINDS.has(fault.kind);
}

function checkFault(fault: Fault): void {
  if (fault.kind === 'pass' || LATE_KINDS.has(fault.kind) || EARLY_KINDS.has(fault.kind)) {
    const retryAfter = 'retryAfter' in fault ? fault.retryAfter : undefined;
    if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0)) {
      throw new RangeError('retryAfter must be a non-negative integer (seconds)');
    }
    if (
      fault.kind === 'status' &&
      !(Number.isInteger(fault.status) && fault.status >= 400 && fault.status <= 599)
    ) {
      throw new RangeError(`a status fault needs a 4xx or 5xx status, got ${fault.status}`);
    }
    if (fault.kind === 'largeBody' && !(Number.isInteger(fault.bytes) && fault.bytes > 0)) {
      throw new RangeError('a largeBody fault needs a positive whole number of bytes');
    }
    return;
  }
  throw new TypeError(`unknown fault kind: ${String((fault as { kind: unknown }).kind)}`);
}

export class FaultQueues {
  private readonly queues = new Map<RouteName, Fault[]>();

  push(route: RouteName, faults: readonly Fault[]): void {
    if (!ROUTE_NAMES.includes(route)) throw new TypeError(`unknown route: ${route}`);
    for (const fault of faults) checkFault(fault);
    this.queues.set(route, [...(this.queues.get(route) ?? []), ...faults]);
  }

  /** The next fault for a route, or undefined for normal behaviour ('pass' included). */
  take(route: RouteName): Exclude<Fault, { kind: 'pass' }> | undefined {
    const fault = this.queues.get(route)?.shift();
    return fault === undefined || fault.kind === 'pass' ? undefined : fault;
  }

  clear(): void {
    this.queues.clear();
  }
}

type EarlyAction = { reply: Reply } | { socket: 'drop' | 'hang' } | { large: LargeBody };

const HTML_PAGE = Buffer.from(
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n',
);

export function earlyAction(fault: EarlyFault, operationId: string): EarlyAction {
  switch (fault.kind) {
    case 'status':
      return {
        reply: errorReply(injectedError(fault.status, fault.errorCode, fault.retryAfter), operationId),
      };
    case 'rateLimit':
      return { reply: errorReply(injectedError(429, 'ERR_NGROK_226', fault.retryAfter), operationId) };
    case 'html':
      // A load balancer's page: no JSON and no operation id.
      return { reply: { status: 502, headers: { 'content-type': 'text/html' }, body: HTML_PAGE } };
    case 'drop':
    case 'hang':
      return { socket: fault.kind };
    case 'largeBody':
      return { large: fault };
  }
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Streams a JSON body of `bytes` bytes (a tunnel list with a long padding field), 64 KiB at a time
 * with backpressure, and stops when the client goes away: the stand-in never holds it whole.
 */
export async function sendLarge(res: ServerResponse, fault: LargeBody, operationId: string): Promise<void> {
  const head = Buffer.from('{"tunnels":[],"next_page_uri":null,"padding":"');
  const tail = Buffer.from('"}');
  const total = Math.max(fault.bytes, head.length + tail.length);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'ngrok-operation-id': operationId,
  };
  if (!fault.chunked) headers['content-length'] = String(total);
  res.writeHead(200, headers);
  let left = total - head.length - tail.length;
  const write = async (chunk: Buffer) => {
    if (res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done).off('close', done);
        resolve();
      };
      res.on('drain', done).on('close', done);
    });
  };
  await write(head);
  while (left > 0 && !res.destroyed) {
    const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, left));
    left -= chunk.length;
    await write(chunk);
  }
  if (!res.destroyed) res.end(tail);
}

function withoutField(body: Buffer, route: RouteName): Buffer {
  const value: unknown = JSON.parse(body.toString('utf8'));
  if (typeof value !== 'object' || value === null) return body;
  const copy: Record<string, unknown> = { ...value };
  // Error bodies lose their message; successful ones lose the route's key field.
  delete copy['status_code' in copy ? 'msg' : REQUIRED_FIELD[route]];
  return Buffer.from(JSON.stringify(copy));
}

/** Damages the normal answer. A 204 becomes a 200 when a (broken) body must be sent. */
export function mangle(fault: LateFault, route: RouteName, reply: Reply): Reply {
  const status = reply.status === 204 ? 200 : reply.status;
  const headers = { ...reply.headers, 'content-type': 'application/json' };
  switch (fault.kind) {
    case 'malformedJson': {
      // A trailing comma: looks like JSON, does not parse.
      const text = reply.body.length > 0 ? reply.body.toString('utf8').slice(0, -1) : '{"enabled":true';
      return { status, headers, body: Buffer.from(`${text},}`) };
    }
    case 'truncatedJson': {
      const body = reply.body.length > 1 ? reply.body : Buffer.from('{"enabled":true}');
      return { status, headers, body: body.subarray(0, Math.floor(body.length / 2)) };
    }
    case 'wrongContentType':
      return { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } };
    case 'missingField':
      return reply.body.length === 0 ? reply : { ...reply, body: withoutField(reply.body, route) };
  }
}
