// The live events tests' preset of the one harness (graphql-ws attached, fast polling), plus SSE and
// graphql-ws subscribers that collect what they receive (tunnelEvents, endpointEvents and
// tunnelSessionEvents).
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { Gateway } from '../../src/app';
import type { AccountSeed } from '../../src/sandbox';
import { type Stack, type StackOptions, startStack } from '../support/stack';

export { graphqlTunnel } from '../support/fixtures';
export { KEY, OTHER_KEY, type Stack, TUNNEL_FIELDS } from '../support/stack';

/** An event's observedAt: RFC 3339 in UTC. */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

export const EVENTS = (fields = 'id publicUrl region') =>
  `subscription Events($includeCurrent: Boolean) { tunnelEvents(includeCurrent: $includeCurrent) { kind tunnelId observedAt tunnel { ${fields} } } }`;

/** An endpointEvents subscription selecting `fields` of the endpoint. */
export const ENDPOINT_EVENTS = (fields = 'id') =>
  `subscription EndpointEvents($includeCurrent: Boolean) { endpointEvents(includeCurrent: $includeCurrent) { kind endpointId observedAt endpoint { ${fields} } } }`;

/** A tunnelSessionEvents subscription selecting `fields` of the session. */
export const SESSION_EVENTS = (fields = 'id') =>
  `subscription AgentEvents($includeCurrent: Boolean) { tunnelSessionEvents(includeCurrent: $includeCurrent) { kind tunnelSessionId observedAt tunnelSession { ${fields} } } }`;

export interface EventResult {
  data?: {
    /** Typed as present for the tunnel tests; an endpointEvents result has only `endpointEvents`. */
    tunnelEvents: { kind: string; tunnelId: string; observedAt: string; tunnel: Record<string, unknown> };
    endpointEvents?: {
      kind: string;
      endpointId: string;
      observedAt: string;
      endpoint: Record<string, unknown>;
    };
    tunnelSessionEvents?: {
      kind: string;
      tunnelSessionId: string;
      observedAt: string;
      tunnelSession: Record<string, unknown>;
    };
  } | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** Live-events settings for tests: a fast poll with room for one walk per interval. */
const LIVE_ENV = {
  LIVE_POLL_INTERVAL_MS: '200',
  LIVE_IDLE_MS: '200',
  // Room for polling every interval; the budget tests set their own.
  LIVE_POLL_BUDGET_PER_MIN: '6000',
};

/** The one harness (test/support/stack.ts) with graphql-ws attached and fast live polling. */
export const startLiveStack = (
  options: StackOptions & { accounts: Record<string, AccountSeed> },
): Promise<Stack> => startStack({ ...options, websocket: true, env: { ...LIVE_ENV, ...options.env } });

/** Waits until `condition` holds, checking every 20 ms; fails after `timeoutMs` with `what`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a subscriber has received so far, and whether its stream ended. */
export interface Subscriber {
  readonly results: EventResult[];
  /** 'complete' once the stream ended normally, an error text when it broke. */
  ended: string | undefined;
  /** The events' kind:tunnelId (kind:endpointId, kind:tunnelSessionId for the other two), in order. */
  readonly seen: () => string[];
  /** Resolves once `n` results have arrived. */
  received(n: number, timeoutMs?: number): Promise<EventResult[]>;
  close(): void;
}

function subscriber(close: () => void): Subscriber {
  const s: Subscriber = {
    results: [],
    ended: undefined,
    seen: () =>
      s.results.map((r) => {
        const { tunnelEvents: tunnel, endpointEvents: endpoint, tunnelSessionEvents: session } = r.data ?? {};
        if (tunnel) return `${tunnel.kind}:${tunnel.tunnelId}`;
        if (session) return `${session.kind}:${session.tunnelSessionId}`;
        return endpoint ? `${endpoint.kind}:${endpoint.endpointId}` : 'error';
      }),
    async received(n, timeoutMs = 15_000) {
      await until(() => s.results.length >= n || s.ended !== undefined, `${n} results`, timeoutMs);
      return s.results.slice(0, n);
    },
    close,
  };
  return s;
}

/**
 * Reads a GraphQL over SSE response in the background: each `next` event's data, parsed, to `next`;
 * how it ended to `ended`: 'complete', 'closed without complete', or 'broken: <error>'.
 */
export function readSse(
  response: Response,
  on: { next: (data: unknown) => void; ended: (how: string) => void },
): void {
  if (!response.body) throw new Error('no body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (\w+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'next' && data) on.next(JSON.parse(data));
          if (event === 'complete') on.ended('complete');
        }
      }
      on.ended('closed without complete');
    } catch (error) {
      on.ended(`broken: ${(error as Error).name}`);
    }
  })();
}

/** Subscribes over GraphQL over SSE (POST, Accept: text/event-stream). `key` null: no credential. */
export async function sse(
  url: string,
  key: string | null,
  variables: Record<string, unknown> = {},
  query = EVENTS(),
): Promise<Subscriber & { status: number }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify({ query, variables }),
  });
  const s = Object.assign(
    subscriber(() => abort.abort()),
    { status: response.status },
  );
  readSse(response, {
    next: (data) => s.results.push(data as EventResult),
    ended: (how) => {
      s.ended ??= how;
    },
  });
  return s;
}

/** A graphql-ws client (the `ws` WebSocket) with `connectionParams.authorization` unless `key` is null. */
export function wsClient(wsUrl: string, key: string | null, headers?: Record<string, string>): Client {
  class HeaderWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  return createClient({
    url: wsUrl,
    webSocketImpl: headers ? HeaderWebSocket : WebSocket,
    connectionParams: key === null ? undefined : { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: true,
  });
}

/** Subscribes over graphql-ws with `client`. */
export function wsSubscribe(
  client: Client,
  variables: Record<string, unknown> = {},
  query = EVENTS(),
): Subscriber {
  let dispose = () => {};
  const s = subscriber(() => dispose());
  dispose = client.subscribe<EventResult['data']>(
    { query, variables },
    {
      next: (result) => s.results.push(result as EventResult),
      error: (error) => {
        s.results.push({
          errors: Array.isArray(error) ? error : [{ message: String((error as Error)?.message ?? error) }],
        });
        s.ended = 'error';
      },
      complete: () => {
        s.ended ??= 'complete';
      },
    },
  );
  return s;
}

/** A counter or gauge of the gateway's registry (summed over labels matching `labels`). */
export async function metric(
  gateway: Gateway,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const found = await gateway.metrics.getSingleMetric(name)?.get();
  let sum = 0;
  for (const v of found?.values ?? []) {
    if (Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want)) sum += v.value;
  }
  return sum;
}
