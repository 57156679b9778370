// A gateway and a stand-in upstream, both on loopback ephemeral ports, talking real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, type Gateway } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { type AccountSeed, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox';

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
}

export interface Stack {
  sandbox: Sandbox;
  gateway: Gateway;
  url: string;
  /** POSTs an operation; `key` goes in the Authorization header (null: none). */
  gql(
    query: string,
    variables?: Record<string, unknown>,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<GqlResult>;
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
  return {
    status: response.status,
    body: (await response.json()) as GqlResult['body'],
    headers: response.headers,
  };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startStack(
  options: {
    accounts?: Record<string, AccountSeed>;
    sandbox?: Omit<SandboxOptions, 'accounts'>;
    env?: Record<string, string>;
  } = {},
): Promise<Stack> {
  const sandbox = await startSandbox({
    rateLimit: false,
    ...options.sandbox,
    accounts: options.accounts ?? { [KEY]: {} },
  });
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    NGROK_API_URL: sandbox.url,
    // Suites that spend more than a minute's budget per key turn it on themselves (test/budget, test/cluster).
    UPSTREAM_RATE_LIMIT_PER_MIN: '0',
    ...options.env,
  });
  const gateway = createGateway(config);
  const server = createServer(gateway.yoga);
  const base = await listen(server);
  const url = `${base}/graphql`;
  return {
    sandbox,
    gateway,
    url,
    gql: (query, variables, options) => postGraphQL(url, query, variables, options),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
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
