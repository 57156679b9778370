// A gateway in front of the stand-in, like test/support/stack.ts, that also records the transport's
// events and every log line, and can point the gateway at another upstream URL (a closed port, a proxy).
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { createGateway, type Gateway } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import {
  type AccountSeed,
  newId,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
  type UpstreamTunnel,
} from '../../src/sandbox';
import type { UpstreamEvents } from '../../src/upstream/events';
import { type GqlResult, KEY, listen, postGraphQL } from '../support/stack';

export { KEY, OTHER_KEY } from '../support/stack';

/** Every event the transport reported, in order, as [hook, payload]. */
export type Recorded = [keyof UpstreamEvents, unknown][];

export interface Harness {
  sandbox: Sandbox;
  gateway: Gateway;
  config: Config;
  url: string;
  events: Recorded;
  logs: string[];
  /** Present with the `relay` option. */
  relay: Relay | undefined;
  /** Events of one hook. */
  of<K extends keyof UpstreamEvents>(hook: K): Parameters<NonNullable<UpstreamEvents[K]>>[0][];
  gql(
    query: string,
    variables?: Record<string, unknown>,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<GqlResult>;
  /** A raw HTTP request to the gateway's /graphql (attacks need full control). */
  raw(init: RequestInit & { search?: string }): Promise<{ status: number; text: string; headers: Headers }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  accounts?: Record<string, AccountSeed>;
  sandbox?: Omit<SandboxOptions, 'accounts'>;
  env?: Record<string, string>;
  /** Upstream URL for the gateway instead of the stand-in's (the stand-in still runs). */
  upstreamUrl?: string;
  /** Put a counting TCP relay between the gateway and the stand-in (see `relay`). */
  relay?: boolean;
  /** Extra hooks, called after recording. */
  hooks?: UpstreamEvents;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
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
    // No gateway budget unless a test sets one (test/budget covers it).
    UPSTREAM_RATE_LIMIT_PER_MIN: '0',
    ...options.env,
  });
  const events: Recorded = [];
  const record =
    <K extends keyof UpstreamEvents>(hook: K) =>
    (payload: unknown) => {
      events.push([hook, payload]);
      (options.hooks?.[hook] as ((p: unknown) => void) | undefined)?.(payload);
    };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const gateway = createGateway(config, {
    logger: createLogger({ ...config, log: { ...config.log, format: 'json' } }, sink),
    events: {
      attempt: record('attempt'),
      coalesced: record('coalesced'),
      retry: record('retry'),
      circuit: record('circuit'),
      rateLimited: record('rateLimited'),
    },
  });
  const server: Server = createServer(gateway.yoga);
  const url = `${await listen(server)}/graphql`;
  return {
    sandbox,
    gateway,
    config,
    url,
    events,
    logs,
    relay,
    of: (hook) => events.filter(([h]) => h === hook).map(([, p]) => p) as never,
    gql: (query, variables, options) => postGraphQL(url, query, variables, options),
    async raw({ search = '', ...init }) {
      const response = await fetch(`${url}${search}`, init);
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      await relay?.close();
      await sandbox.close();
    },
  };
}

/** A port on loopback that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A TCP relay to `target` that counts connections and notes which side closed each first. */
export interface Relay {
  url: string;
  connections: number;
  /** Connections whose client (the gateway) ended them first. */
  closedByClient: number;
  close(): Promise<void>;
}

export async function startRelay(target: string): Promise<Relay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const relay: Relay = {
    url: '',
    connections: 0,
    closedByClient: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createTcpServer((client) => {
    relay.connections += 1;
    let upstreamEnded = false;
    const remote = connect(Number(port), hostname);
    sockets.add(client);
    sockets.add(remote);
    client.pipe(remote);
    remote.pipe(client);
    remote.on('end', () => {
      upstreamEnded = true;
    });
    client.on('end', () => {
      if (!upstreamEnded) relay.closedByClient += 1;
    });
    const drop = () => {
      client.destroy();
      remote.destroy();
      sockets.delete(client);
      sockets.delete(remote);
    };
    client.on('error', drop);
    remote.on('error', drop);
    client.on('close', drop);
    remote.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The two writes, as the reliability and security tests send them. */
export const REPLACE = `mutation($input: ReplaceHttpsEdgeRouteBackendInput!) {
  replaceHttpsEdgeRouteBackend(input: $input) {
    __typename
    ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { backend { id } } }
  }
}`;
export const DELETE = `mutation($input: DeleteHttpsEdgeRouteBackendInput!) {
  deleteHttpsEdgeRouteBackend(input: $input) { __typename }
}`;

/** An account with `tunnels` and one HTTPS edge whose single route has an enabled module. */
export function oneRouteAccount(tunnels: UpstreamTunnel[]) {
  const edge = newId('edghts');
  const route = newId('edghtsrt');
  const backend = newId('bkdtg');
  const seed: AccountSeed = {
    tunnels,
    edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backend, enabled: true } }] }],
    backends: [backend],
  };
  return { edge, route, backend, seed };
}
