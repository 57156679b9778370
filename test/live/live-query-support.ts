// Live query clients for tests: over GraphQL over SSE (POST or GET) and graphql-ws, each keeping
// every payload it received, and the data they add up to, applied as a client would, with
// @n1ru4l/graphql-live-query-patch-json-patch's applyLiveQueryJSONPatch.
import { applyLiveQueryJSONPatch } from '@n1ru4l/graphql-live-query-patch-json-patch';
import type { Client } from 'graphql-ws';
import { readSse, until } from './support';

interface LivePayload {
  data?: Record<string, unknown> | null;
  patch?: unknown[];
  revision?: number;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, unknown>;
}

export interface LiveClient {
  readonly payloads: LivePayload[];
  /** 'complete' once the stream ended normally, 'error' or a break otherwise. */
  ended: string | undefined;
  /** Resolves once `n` payloads have arrived. */
  received(n: number, timeoutMs?: number): Promise<LivePayload[]>;
  /** The data every payload so far adds up to (applyLiveQueryJSONPatch over a copy of them). */
  data(): Promise<Record<string, unknown> | null | undefined>;
  close(): void;
}

async function* replay(payloads: readonly LivePayload[]): AsyncGenerator<LivePayload> {
  for (const payload of payloads) yield structuredClone(payload);
}

function liveClient(close: () => void): LiveClient {
  const c: LiveClient = {
    payloads: [],
    ended: undefined,
    async received(n, timeoutMs = 15_000) {
      await until(() => c.payloads.length >= n || c.ended !== undefined, `${n} live payloads`, timeoutMs);
      return c.payloads.slice(0, n);
    },
    async data() {
      let data: Record<string, unknown> | null | undefined;
      for await (const value of applyLiveQueryJSONPatch(replay(c.payloads) as never)) {
        data = (value as LivePayload).data;
      }
      return data;
    },
    close,
  };
  return c;
}

/** A live query over SSE: POST with a JSON body, or GET with the query in the URL. */
export async function liveSse(
  url: string,
  key: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  method: 'POST' | 'GET' = 'POST',
): Promise<LiveClient & { status: number }> {
  const abort = new AbortController();
  const search = new URLSearchParams({ query, variables: JSON.stringify(variables) });
  const response = await fetch(method === 'GET' ? `${url}?${search}` : url, {
    method,
    signal: abort.signal,
    headers: {
      accept: 'text/event-stream',
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    },
    ...(method === 'POST' ? { body: JSON.stringify({ query, variables }) } : {}),
  });
  const c = Object.assign(
    liveClient(() => abort.abort()),
    { status: response.status },
  );
  readSse(response, {
    next: (data) => c.payloads.push(data as LivePayload),
    ended: (how) => {
      c.ended ??= how;
    },
  });
  return c;
}

/** A live query over graphql-ws with `client`. */
export function liveWs(client: Client, query: string, variables: Record<string, unknown> = {}): LiveClient {
  let dispose = () => {};
  const c = liveClient(() => dispose());
  dispose = client.subscribe(
    { query, variables },
    {
      next: (payload) => c.payloads.push(payload as LivePayload),
      error: (error) => {
        c.payloads.push({
          errors: Array.isArray(error) ? error : [{ message: String((error as Error)?.message ?? error) }],
        });
        c.ended = 'error';
      },
      complete: () => {
        c.ended ??= 'complete';
      },
    },
  );
  return c;
}
