// The one test harness: a gateway in front of the stand-in, both on loopback ephemeral ports, talking
// real HTTP (and graphql-ws with `websocket`). It records every upstream event and every log line.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createGateway, type Gateway } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { startTracing } from '../../src/gateway/observability';
import { attachWebSocket } from '../../src/gateway/transports';
import { createLogger } from '../../src/log';
import { type AccountSeed, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox';
import { UPSTREAM_EVENT_NAMES, type UpstreamEvents } from '../../src/upstream/call/hooks';
import { type Relay, startRelay } from './relay';
import { takeUpstreamCalls, type UpstreamCalls } from './upstream-calls';

export const KEY = 'test-key-0123456789';
export const OTHER_KEY = 'other-key-0123456789';

export interface GqlResult {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
    extensions?: Record<string, unknown>;
  };
  headers: Headers;
  /** What the answer said of its upstream calls (taken out of body.extensions; made <= predicted checked). */
  upstreamCalls?: UpstreamCalls;
}

/** Every event the transport reported, in order, as [hook, payload]. */
type Recorded = [keyof UpstreamEvents, unknown][];

export interface StackOptions {
  accounts?: Record<string, AccountSeed>;
  sandbox?: Omit<SandboxOptions, 'accounts'>;
  env?: Record<string, string>;
  /** Upstream URL for the gateway instead of the stand-in's (the stand-in still runs). */
  upstreamUrl?: string;
  /** Put a counting TCP relay between the gateway and the stand-in (see `relay`). */
  relay?: boolean;
  /** Extra hooks, called after recording. */
  hooks?: UpstreamEvents;
  /** Attach graphql-ws (see `wsUrl`), as main.ts does. */
  websocket?: boolean;
  /** graphql-ws keep-alive: ping interval and pong deadline (default 1 s). */
  keepAliveMs?: number;
}

export interface Stack {
  sandbox: Sandbox;
  gateway: Gateway;
  config: Config;
  /** e.g. http://127.0.0.1:40123 (no path). */
  base: string;
  /** The GraphQL endpoint. */
  url: string;
  /** The graphql-ws endpoint (with `websocket`). */
  wsUrl: string;
  events: Recorded;
  /** Events of one hook. */
  of<K extends keyof UpstreamEvents>(hook: K): Parameters<NonNullable<UpstreamEvents[K]>>[0][];
  /** Raw log chunks, as written. */
  logs: string[];
  /** The log text, to check what never appears in it. */
  text(): string;
  /** Every log line so far, parsed. */
  lines(): Record<string, unknown>[];
  /** Present with the `relay` option. */
  relay: Relay | undefined;
  /** The gateway's HTTP server (a test that reaches under a connection takes its sockets here). */
  server: Server;
  /** Connections the gateway's HTTP server holds open now (WebSockets included). */
  connections(): Promise<number>;
  /** POSTs an operation; `key` goes in the Authorization header (null: none). */
  gql(
    query: string,
    variables?: Record<string, unknown>,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<GqlResult>;
  /** POSTs a JSON body with the test key. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** A raw HTTP request to the gateway's /graphql (attacks need full control). */
  raw(init: RequestInit & { search?: string }): Promise<{ status: number; text: string; headers: Headers }>;
  close(): Promise<void>;
}

/** POSTs an operation to a gateway over HTTP; `key` goes in the Authorization header (null: none). */
export async function postGraphQL(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  { key = KEY, headers = {} }: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<GqlResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  const { answer, calls } = takeUpstreamCalls((await response.json()) as GqlResult['body']);
  return { status: response.status, body: answer, headers: response.headers, upstreamCalls: calls };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Hooks that record every upstream event into `events`, then call `extra`'s. */
function recorder(events: Recorded, extra: UpstreamEvents | undefined): UpstreamEvents {
  const hooks: Record<string, (payload: unknown) => void> = {};
  for (const hook of UPSTREAM_EVENT_NAMES) {
    hooks[hook] = (payload) => {
      events.push([hook, payload]);
      (extra?.[hook] as ((p: unknown) => void) | undefined)?.(payload);
    };
  }
  return hooks as UpstreamEvents;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const sandbox = await startSandbox({
    rateLimit: false,
    ...options.sandbox,
    accounts: options.accounts ?? { [KEY]: {} },
  });
  const relay = options.relay ? await startRelay(sandbox.url) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    NGROK_API_URL: options.upstreamUrl ?? relay?.url ?? sandbox.url,
    LOG_LEVEL: 'debug',
    // Off unless a test turns it on (test/budget, test/cluster): many tests spend more than a minute's
    // budget per key, and answers that reach the upstream then carry extensions.upstreamBudget.
    UPSTREAM_RATE_LIMIT_PER_MIN: '0',
    ...options.env,
  });
  const events: Recorded = [];
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ ...config, log: { ...config.log, format: 'json' } }, sink);
  const gateway = createGateway(config, {
    logger,
    events: recorder(events, options.hooks),
    // Started as main.ts does: only with an OTLP endpoint in `env`.
    tracing: await startTracing(config.tracing, logger),
  });
  const server = createServer(gateway.handler);
  const websocket = options.websocket
    ? attachWebSocket(server, gateway, config, { keepAliveMs: options.keepAliveMs ?? 1_000 })
    : undefined;
  const base = await listen(server);
  const url = `${base}/graphql`;
  const text = () => logs.join('');
  return {
    sandbox,
    gateway,
    config,
    base,
    url,
    wsUrl: `${base.replace(/^http/, 'ws')}/graphql`,
    events,
    of: (hook) => events.filter(([h]) => h === hook).map(([, p]) => p) as never,
    logs,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    relay,
    server,
    connections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    gql: (query, variables, gqlOptions) => postGraphQL(url, query, variables, gqlOptions),
    post: (body, headers = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
        body: JSON.stringify(body),
      }),
    async raw({ search = '', ...init }) {
      const response = await fetch(`${url}${search}`, init);
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    async close() {
      await gateway.live.close();
      await websocket?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      await relay?.close();
      await sandbox.close();
    },
  };
}

/** Every field of Tunnel, as frontends select it. */
export const TUNNEL_FIELDS = `
  id publicUrl startedAt metadata proto region forwardsTo
  tunnelSession { id uri } endpoint { id uri } backends { id uri } labels { name value }
`;

/** `data[field]` of an answer, failing the test with the errors when it is absent. */
export function dataOf<T>(body: GqlResult['body'], field: string): T {
  const value = body.data?.[field];
  if (value === undefined || value === null)
    throw new Error(`no data.${field}: ${JSON.stringify(body.errors)}`);
  return value as T;
}
