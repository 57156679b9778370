// An answer in payloads (@defer, @stream) over HTTP, read to its end as a client reads it: multipart/mixed
// or GraphQL over SSE. Its last payload's extensions.upstreamCalls is checked (made <= predicted) and
// taken out, like every answer the harness reads (./upstream-calls.ts).
import { takeStreamCalls, type UpstreamCalls } from './upstream-calls';

export type StreamTransport = 'multipart' | 'sse';

/** One payload: the first has `data`, the later ones `incremental` parts; the last says hasNext: false. */
export interface StreamPayload {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  incremental?: {
    data?: Record<string, unknown> | null;
    items?: unknown[];
    path?: (string | number)[];
    label?: string;
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  }[];
  hasNext?: boolean;
  extensions?: Record<string, unknown>;
}

export interface StreamedAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** Every payload, in order, without extensions.upstreamCalls. */
  readonly payloads: StreamPayload[];
  /** The operation's totals, from its last payload (made <= predicted checked). */
  readonly upstreamCalls: UpstreamCalls | undefined;
}

/** What a client asking for each transport sends as `Accept`. */
export const ACCEPT: Record<StreamTransport, string> = {
  multipart: 'multipart/mixed',
  sse: 'text/event-stream',
};

/** The JSON payloads of a whole multipart/mixed or SSE body, in order. */
export function payloadsOf(transport: StreamTransport, body: string): StreamPayload[] {
  const pattern = transport === 'multipart' ? /\r?\n\r?\n(\{.*\})\r?\n/g : /^event: next\ndata: (\{.*\})$/gm;
  return [...body.matchAll(pattern)].map((m) => JSON.parse(m[1] ?? 'null') as StreamPayload);
}

/** POSTs `body` asking for `transport`, `key` the Bearer credential, and reads the answer to its end. */
export async function postStreamed(
  url: string,
  body: Record<string, unknown>,
  {
    transport,
    key,
    headers = {},
  }: { transport: StreamTransport; key: string; headers?: Record<string, string> },
): Promise<StreamedAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT[transport],
      authorization: `Bearer ${key}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const { payloads, calls } = takeStreamCalls(payloadsOf(transport, await response.text()));
  return { status: response.status, headers: response.headers, payloads, upstreamCalls: calls };
}
