import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import type { UpstreamEndpoint } from '../../src/sandbox';

// Small HTTP helpers shared by the stand-in's tests. fetch covers ordinary calls; raw() uses
// node:http for what fetch refuses to send (a body on GET, odd headers, no headers at all).

export const OP_ID = /^op_[0-9A-Za-z]{27}$/;

export function headersFor(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'ngrok-version': '2' };
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function call(
  url: string,
  options: { key?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = {
    ...(options.key === undefined ? {} : headersFor(options.key)),
    ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  const res = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A request exactly as given: nothing is added or normalised. */
export function raw(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // GET and DELETE are not chunked by default, so a body needs an explicit length to be framed.
    const framed = options.body === undefined || options.headers?.['transfer-encoding'] !== undefined;
    const length = framed ? {} : { 'content-length': String(Buffer.byteLength(options.body ?? '')) };
    const headers = { ...length, ...options.headers };
    const req = httpRequest(
      `${baseUrl}${path}`,
      { method: options.method ?? 'GET', headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Asserts the exact error body shape and that its operation id matches the header. */
function expectError(
  answer: { status: number; text: string; operationId: string | null | undefined },
  status: number,
  errorCode: string | undefined,
): void {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  const expectedKeys =
    errorCode === undefined
      ? ['details', 'msg', 'status_code']
      : ['details', 'error_code', 'msg', 'status_code'];
  expect(Object.keys(body).sort()).toEqual(expectedKeys);
  expect(body.error_code).toBe(errorCode);
  expect(body.status_code).toBe(status);
  expect(typeof body.msg).toBe('string');
  expect((body.msg as string).length).toBeGreaterThan(0);
  expect(body.details).toEqual({ operation_id: answer.operationId });
  expect(answer.operationId).toMatch(OP_ID);
}

export function expectApiError(answer: ApiAnswer, status: number, errorCode?: string): void {
  expect(answer.headers.get('content-type')).toBe('application/json');
  expectError(
    { status: answer.status, text: answer.text, operationId: answer.headers.get('ngrok-operation-id') },
    status,
    errorCode,
  );
}

export function expectRawError(answer: RawAnswer, status: number, errorCode?: string): void {
  expect(answer.headers['content-type']).toBe('application/json');
  const operationId = answer.headers['ngrok-operation-id'];
  expectError(
    {
      status: answer.status,
      text: answer.text,
      operationId: typeof operationId === 'string' ? operationId : undefined,
    },
    status,
    errorCode,
  );
}

/** Paths of every null in a JSON value (next_page_uri is the one field allowed to be null). */
export function nullPaths(value: unknown, path = '$'): string[] {
  if (value === null) return path.endsWith('.next_page_uri') ? [] : [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullPaths(item, `${path}[${index}]`));
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => nullPaths(item, `${path}.${key}`));
  }
  return [];
}

export interface TunnelListBody {
  tunnels: { id: string }[];
  uri: string;
  next_page_uri: string | null;
}

export interface EndpointListBody {
  endpoints: UpstreamEndpoint[];
  uri: string;
  next_page_uri: string | null;
}

/** Follows next_page_uri from `first` to the end, as sent; returns every page. */
export async function walkEndpoints(first: string, key: string): Promise<EndpointListBody[]> {
  const pages: EndpointListBody[] = [];
  let url: string | null = first;
  while (url !== null) {
    const answer = await call(url, { key });
    expect(answer.status).toBe(200);
    const page = answer.json as EndpointListBody;
    pages.push(page);
    url = page.next_page_uri;
  }
  return pages;
}

/** Waits until `condition` holds, checking every 20 ms; fails after `timeoutMs` naming `what`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
