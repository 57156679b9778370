// graphql-ws for tests, over the real `ws` WebSocket: a client whose upgrade carries any header
// (Origin, Host, Authorization) and which records how its socket closed, one operation run to its
// end, and a raw upgrade request whose answer (a refusal's status, headers and body) can be read.

import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type Client, createClient, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { takeStreamCalls, takeUpstreamCalls, type UpstreamCalls } from './upstream-calls';

export interface WsClient {
  readonly client: Client;
  /** Close codes of the client's sockets, in order. */
  readonly closes: number[];
  /** connection_ack messages received. */
  acks: number;
  dispose(): Promise<void>;
}

/** A graphql-ws client; `key` goes in connectionParams.authorization, `headers` on the upgrade. */
export function wsClient(
  url: string,
  { key, headers = {} }: { key?: string; headers?: Record<string, string> } = {},
): WsClient {
  class HeaderWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const closes: number[] = [];
  const state: WsClient = {
    client: createClient({
      url,
      webSocketImpl: HeaderWebSocket,
      connectionParams: key === undefined ? undefined : { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: true,
      on: {
        connected: () => {
          state.acks += 1;
        },
        closed: (event) => closes.push((event as { code: number }).code),
      },
    }),
    closes,
    acks: 0,
    dispose: async () => {
      await state.client.dispose();
    },
  };
  return state;
}

export interface Outcome {
  /** Every result received (one for a query or a mutation), without extensions.upstreamCalls. */
  readonly results: FormattedExecutionResult<Record<string, unknown>, unknown>[];
  /** What each result said of its upstream calls (made <= predicted checked). */
  readonly upstreamCalls: (UpstreamCalls | undefined)[];
  /** What ended it other than `complete`: GraphQL errors, or the socket's close event. */
  readonly error?: unknown;
}

/** The figures ride along unseen by toEqual (not enumerable): tests compare what came as they did. */
const withCalls = (outcome: Omit<Outcome, 'upstreamCalls'>, calls: (UpstreamCalls | undefined)[]): Outcome =>
  Object.defineProperty(outcome, 'upstreamCalls', { value: calls, enumerable: false }) as Outcome;

/**
 * The figures each result carried, taken out: every result of a single answer, the last payload of a
 * streamed one (@defer, @stream: the payloads before it carry none); throws on made > predicted.
 */
function taken(received: FormattedExecutionResult<Record<string, unknown>, unknown>[]) {
  if (!received.some((r) => 'hasNext' in r)) {
    const each = received.map((r) => takeUpstreamCalls(r));
    return { results: each.map((t) => t.answer), calls: each.map((t) => t.calls) };
  }
  const { payloads, calls } = takeStreamCalls(received);
  return {
    results: payloads,
    calls: payloads.map((_, i) => (i === payloads.length - 1 ? calls : undefined)),
  };
}

/** Runs one operation until it completes or fails; a result that breaks the figures' rules is its error. */
export function run(
  { client }: WsClient,
  query: string,
  variables?: Record<string, unknown>,
  extensions?: Record<string, unknown>,
): Promise<Outcome> {
  const received: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
  return new Promise((resolve) => {
    const end = (error?: unknown) => {
      try {
        const { results, calls } = taken(received);
        resolve(withCalls(error === undefined ? { results } : { results, error }, calls));
      } catch (broken) {
        resolve(withCalls({ results: received, error: broken }, []));
      }
    };
    client.subscribe(
      { query, variables, extensions },
      { next: (result) => received.push(result), error: (error) => end(error), complete: () => end() },
    );
  });
}

export interface UpgradeAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A WebSocket upgrade for graphql-transport-ws over node:http (which sends the Host it is given). */
export function upgrade(wsUrl: string, headers: Record<string, string> = {}): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(wsUrl.replace(/^ws/, 'http'), {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        'sec-websocket-protocol': 'graphql-transport-ws',
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
