// Queries and mutations over graphql-ws, with the real graphql-ws client: every seed operation gives
// the answer HTTP gives, with the same upstream calls, and the same limits, access control,
// persisted-operation rules, upstream budget and metrics apply.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, makeTunnels, newId, ROUTE_NAMES, type RouteName } from '../../src/sandbox';
import { metric } from '../live/support';
import { budgetAfter } from '../support/budget';
import { DELETE, oneRouteAccount, REPLACE } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';
import { type Outcome, run, type WsClient, wsClient } from '../support/websocket';

const tunnels = makeTunnels(3, { seed: 43 });
const newest = [...tunnels].sort((a, b) => (a.id < b.id ? 1 : -1));
const { edge, route, backend, seed: base } = oneRouteAccount(tunnels);
const other = newId('bkdfo');
const seed = (): AccountSeed => ({ ...base, backends: [backend, other] });
const input = { edgeId: edge, routeId: route };

interface SeedOperation {
  readonly name: string;
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly data: Record<string, unknown>;
  /** Upstream calls by route; every other route gets none. */
  readonly calls: Partial<Record<RouteName, number>>;
  /** The module stored upstream afterwards. */
  readonly stored: { backendId: string; enabled: boolean } | undefined;
}

const SEED_OPERATIONS: SeedOperation[] = [
  {
    name: 'tunnels list',
    query: 'query TunnelsPage { tunnels(first: 2) { nodes { id publicUrl } } }',
    variables: {},
    data: { tunnels: { nodes: newest.slice(0, 2).map((t) => ({ id: t.id, publicUrl: t.public_url })) } },
    calls: { listTunnels: 1 },
    stored: { backendId: backend, enabled: true },
  },
  {
    name: 'tunnel by id',
    query: 'query OneTunnel($id: ID!) { tunnel(id: $id) { id publicUrl } }',
    variables: { id: newest[2]?.id },
    data: { tunnel: { id: newest[2]?.id, publicUrl: newest[2]?.public_url } },
    calls: { getTunnel: 1 },
    stored: { backendId: backend, enabled: true },
  },
  {
    name: 'get backend module',
    query: `query BackendModule($edgeId: ID!, $routeId: ID!) {
      httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { edgeId routeId enabled backend { id } }
    }`,
    variables: input,
    data: { httpsEdgeRouteBackend: { ...input, enabled: true, backend: { id: backend } } },
    calls: { getBackend: 1 },
    stored: { backendId: backend, enabled: true },
  },
  {
    name: 'replace backend module',
    query: REPLACE,
    variables: { input: { ...input, backendId: other, enabled: false } },
    data: {
      replaceHttpsEdgeRouteBackend: {
        __typename: 'ReplaceHttpsEdgeRouteBackendPayload',
        backendModule: { backend: { id: other } },
      },
    },
    calls: { replaceBackend: 1 },
    stored: { backendId: other, enabled: false },
  },
  {
    name: 'delete backend module',
    query: DELETE,
    variables: { input },
    data: { deleteHttpsEdgeRouteBackend: { __typename: 'DeleteHttpsEdgeRouteBackendPayload' } },
    calls: { deleteBackend: 1 },
    stored: undefined,
  },
];

/** The calls the stand-in received, by route. */
const callsOf = (h: Stack) => Object.fromEntries(ROUTE_NAMES.map((r) => [r, h.sandbox.calls(r)]));
const only = (calls: Partial<Record<RouteName, number>>) => ({
  ...Object.fromEntries(ROUTE_NAMES.map((r) => [r, 0])),
  ...calls,
});
const storedModule = (h: Stack) => h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend;
/** The codes of the errors a refused operation ended with. */
const codesOf = (outcome: Outcome) =>
  (outcome.error as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code);

describe('queries and mutations over graphql-ws', () => {
  let h: Stack;
  let client: WsClient;
  beforeAll(async () => {
    h = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed() }, websocket: true });
    client = wsClient(h.wsUrl, { key: KEY });
  });
  afterAll(async () => {
    await client.dispose();
    await h.close();
  });
  beforeEach(() => {
    h.sandbox.seed(KEY, seed());
    h.sandbox.resetCalls();
  });

  for (const op of SEED_OPERATIONS) {
    it(`${op.name}: the answer and upstream calls HTTP gives`, async () => {
      expect(await run(client, op.query, op.variables)).toEqual({ results: [{ data: op.data }] });
      expect(callsOf(h)).toEqual(only(op.calls));
      expect(storedModule(h)).toEqual(op.stored);

      h.sandbox.seed(KEY, seed());
      h.sandbox.resetCalls();
      const overHttp = await h.gql(op.query, op.variables);
      expect(overHttp.body).toEqual({ data: op.data });
      expect(callsOf(h)).toEqual(only(op.calls));
    });
  }

  it('mutations in one document run one after the other: two writes, in order', async () => {
    const outcome = await run(
      client,
      `mutation($replace: ReplaceHttpsEdgeRouteBackendInput!, $delete: DeleteHttpsEdgeRouteBackendInput!) {
        replaced: replaceHttpsEdgeRouteBackend(input: $replace) { __typename }
        deleted: deleteHttpsEdgeRouteBackend(input: $delete) { __typename }
      }`,
      { replace: { ...input, backendId: other }, delete: input },
    );
    expect(outcome).toEqual({
      results: [
        {
          data: {
            replaced: { __typename: 'ReplaceHttpsEdgeRouteBackendPayload' },
            deleted: { __typename: 'DeleteHttpsEdgeRouteBackendPayload' },
          },
        },
      ],
    });
    expect(callsOf(h)).toEqual(only({ replaceBackend: 1, deleteBackend: 1 }));
    expect(storedModule(h)).toBeUndefined();
  });

  it('query limits hold: a document over MAX_ALIASES is refused before any call', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: tunnels(first: 1) { nodes { id } }`);
    const outcome = await run(client, `{ ${aliases.join(' ')} }`);
    expect(outcome.results).toEqual([]);
    expect(codesOf(outcome)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(h.sandbox.calls()).toBe(0);
  });

  it('metrics count operations over graphql-ws by name and type, as over HTTP', async () => {
    const count = (operationName: string, operationType: string) =>
      metric(h.gateway, 'graphql_envelop_request', { operationName, operationType });
    const before = [await count('TunnelsPage', 'query'), await count('ReplaceBackend', 'mutation')];
    await run(client, 'query TunnelsPage { tunnels(first: 1) { nodes { id } } }');
    await run(client, REPLACE.replace(/^mutation/, 'mutation ReplaceBackend'), {
      input: { ...input, backendId: other },
    });
    expect([await count('TunnelsPage', 'query'), await count('ReplaceBackend', 'mutation')]).toEqual([
      (before[0] ?? 0) + 1,
      (before[1] ?? 0) + 1,
    ]);
    expect(callsOf(h)).toEqual(only({ listTunnels: 1, replaceBackend: 1 }));
  });

  it('automatic persisted queries: a hash registered over graphql-ws runs by hash over HTTP, and back', async () => {
    const query = 'query TunnelsPage { tunnels(first: 1) { nodes { id } } }';
    const hash = createHash('sha256').update(query).digest('hex');
    const apq = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });
    const unknown = await run(client, '', {}, apq(hash));
    expect(codesOf(unknown)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    const wrong = await run(client, query, {}, apq('0'.repeat(64)));
    expect(codesOf(wrong)).toEqual(['PERSISTED_QUERY_HASH_MISMATCH']);
    expect(h.sandbox.calls()).toBe(0);
    const listed = { data: { tunnels: { nodes: [{ id: newest[0]?.id }] } } };
    expect(await run(client, query, {}, apq(hash))).toEqual({ results: [listed] });
    const byHash = await h.post({ extensions: apq(hash) });
    expect(await byHash.json()).toEqual({
      ...listed,
      extensions: { upstreamCalls: { predicted: 1, made: 1 } },
    });
    expect(await run(client, '', {}, apq(hash))).toEqual({ results: [listed] });
    expect(h.sandbox.calls('listTunnels')).toBe(3);
  });
});

describe('the same rules as over HTTP, where they are set', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  async function stackWith(env: Record<string, string>) {
    const h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed() },
      websocket: true,
      env,
    });
    cleanup.push(() => h.close());
    const connect = (key: string) => {
      const c = wsClient(h.wsUrl, { key });
      cleanup.push(() => c.dispose());
      return c;
    };
    return { h, connect };
  }
  const replace = { input: { ...input, backendId: other } };

  it('GATEWAY_TOKENS: a read-only token may read but not write (FORBIDDEN, no call); a writer writes', async () => {
    const { h, connect } = await stackWith({
      NGROK_API_KEY: KEY,
      GATEWAY_TOKENS: 'reader-token-0123456789:read,writer-token-0123456789',
    });
    const refused = await run(connect('reader-token-0123456789'), REPLACE, replace);
    expect(refused.results.map((r) => r.errors?.map((e) => e.extensions?.code))).toEqual([['FORBIDDEN']]);
    expect(refused.results[0]?.data).toBeUndefined();
    expect(h.sandbox.calls()).toBe(0);
    const written = await run(connect('writer-token-0123456789'), REPLACE, replace);
    expect(written.error).toBeUndefined();
    expect(callsOf(h)).toEqual(only({ replaceBackend: 1 }));
    expect(storedModule(h)).toEqual({ backendId: other, enabled: true });
  });

  it('PERSISTED_OPERATIONS_ONLY: a manifest mutation runs by id, a raw one is refused', async () => {
    const manifest = join(mkdtempSync(join(tmpdir(), 'ws-ops-')), 'persisted.json');
    writeFileSync(manifest, JSON.stringify({ replace1: REPLACE }));
    const { h, connect } = await stackWith({
      PERSISTED_OPERATIONS_FILE: manifest,
      PERSISTED_OPERATIONS_ONLY: 'true',
    });
    const c = connect(KEY);
    expect(codesOf(await run(c, REPLACE, replace))).toEqual(['PERSISTED_QUERY_ONLY']);
    const byId = (id: string) => run(c, '', replace, { persistedQuery: { version: 1, sha256Hash: id } });
    expect(codesOf(await byId('replace2'))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect(h.sandbox.calls()).toBe(0);
    const replaced = SEED_OPERATIONS[3]?.data.replaceHttpsEdgeRouteBackend as Record<string, unknown>;
    expect(await byId('replace1')).toEqual({
      results: [
        {
          data: { replaceHttpsEdgeRouteBackend: { ...replaced, backendModule: { backend: { id: other } } } },
        },
      ],
    });
    expect(callsOf(h)).toEqual(only({ replaceBackend: 1 }));
  });

  it('the upstream budget: graphql-ws calls claim from the same window and carry upstreamBudget', async () => {
    const { h, connect } = await stackWith({ UPSTREAM_RATE_LIMIT_PER_MIN: '10' });
    const c = connect(KEY);
    const read = SEED_OPERATIONS[2] as SeedOperation;
    const overWs = await run(c, read.query, read.variables);
    expect(overWs.results).toEqual([
      { data: read.data, extensions: { upstreamBudget: budgetAfter(10, { reads: 1 }) } },
    ]);
    const overHttp = await h.gql(read.query, read.variables);
    expect(overHttp.body.extensions).toEqual({ upstreamBudget: budgetAfter(10, { reads: 2 }) });
    const write = await run(c, REPLACE, replace);
    expect(write.results[0]?.extensions).toEqual({
      upstreamBudget: budgetAfter(10, { reads: 2, writes: 1 }),
    });
    expect(await metric(h.gateway, 'gateway_upstream_budget_calls_total', { kind: 'read' })).toBe(2);
    expect(await metric(h.gateway, 'gateway_upstream_budget_calls_total', { kind: 'mutation' })).toBe(1);
    expect(callsOf(h)).toEqual(only({ getBackend: 2, replaceBackend: 1 }));
  });
});
