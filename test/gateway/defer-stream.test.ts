// @defer and @stream (yoga's defer-stream plugin) with real clients: Apollo Client 4 over multipart
// HTTP and urql over SSE each see the initial payload first and the deferred fragment after it,
// with the fewest upstream calls. Such operations run interpreted (graphql-jit would answer in one
// payload), and the query limits, persisted operations and the operation deadline apply to them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { createClient, fetchExchange } from '@urql/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleIdsFrom } from '../../src/gateway/graphiql';
import { demoData } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';
import { postStreamed } from '../support/streamed-answers';

const seed = demoData();
const ids = exampleIdsFrom(seed);
if (!ids) throw new Error('the demo data has no route with a backend');
const route = { edgeId: ids.edgeId, routeId: ids.routeId };
const firstTwo = (seed.tunnels ?? []).slice(0, 2).map((t) => ({ id: t.id }));
const backendId = seed.edges?.find((e) => e.id === ids.edgeId)?.routes.find((r) => r.id === ids.routeId)
  ?.backend?.backendId;

const DEFERRED = `query Deferred($edgeId: ID!, $routeId: ID!) {
  tunnels(first: 2) { nodes { id } }
  ... @defer(label: "module") {
    httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled backend { id } }
  }
}`;

const initial = { tunnels: { nodes: firstTwo } };
const module = { httpsEdgeRouteBackend: { enabled: true, backend: { id: backendId } } };

/** A multipart/mixed answer read to its end (its last payload's upstreamCalls checked and taken out). */
const multipart = (stack: Stack, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  postStreamed(stack.url, body, { transport: 'multipart', key: KEY, headers });

describe('@defer and @stream', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: seed } });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.resetCalls();
    // The deferred fragment's upstream call answers late, so its payload comes well after the first.
    stack.sandbox.setLatency('getBackend', 300);
  });

  it('Apollo Client over multipart HTTP: the initial payload, then the deferred fragment', async () => {
    const types: (string | null)[] = [];
    const client = new ApolloClient({
      link: new HttpLink({
        uri: stack.url,
        headers: { authorization: `Bearer ${KEY}` },
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          types.push(response.headers.get('content-type'));
          return response;
        },
      }),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
    const seen: { dataState: string; data: unknown }[] = [];
    await new Promise<void>((resolve, reject) => {
      const subscription = client
        .watchQuery({ query: gql(DEFERRED), variables: route, fetchPolicy: 'network-only' })
        .subscribe({
          next: (result) => {
            if (result.error) reject(result.error);
            if (result.data === undefined) return;
            seen.push({ dataState: result.dataState, data: result.data });
            if (result.dataState === 'complete') {
              subscription.unsubscribe();
              resolve();
            }
          },
          error: reject,
        });
    });
    const strip = (data: unknown) =>
      JSON.parse(JSON.stringify(data, (k, v) => (k === '__typename' ? undefined : v)));
    expect(seen.map((s) => s.dataState)).toEqual(['streaming', 'complete']);
    expect(strip(seen[0]?.data)).toEqual(initial);
    expect(strip(seen[1]?.data)).toEqual({ ...initial, ...module });
    expect(types).toEqual(['multipart/mixed; boundary="-"']);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
    expect(stack.sandbox.calls('getBackend')).toBe(1);
    client.stop();
  });

  it('urql over SSE: the initial payload, then the deferred fragment', async () => {
    const types: (string | null)[] = [];
    const client = createClient({
      url: stack.url,
      exchanges: [fetchExchange],
      // urql reads multipart and SSE alike; given both, yoga answers multipart, so SSE is asked for.
      fetchOptions: { headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        types.push(response.headers.get('content-type'));
        return response;
      },
    });
    const seen: { hasNext: boolean; data: unknown }[] = [];
    await new Promise<void>((resolve, reject) => {
      const { unsubscribe } = client
        .query(DEFERRED, route, { requestPolicy: 'network-only' })
        .subscribe((result) => {
          if (result.error) reject(result.error);
          seen.push({ hasNext: result.hasNext, data: result.data });
          if (!result.hasNext) {
            // The last result can arrive before subscribe() has returned.
            queueMicrotask(() => unsubscribe());
            resolve();
          }
        });
    });
    expect(seen).toEqual([
      { hasNext: true, data: initial },
      { hasNext: false, data: { ...initial, ...module } },
    ]);
    expect(types).toEqual(['text/event-stream']);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
    expect(stack.sandbox.calls('getBackend')).toBe(1);
  });

  it('@stream sends the first items, then the rest; a multipart answer is never compressed', async () => {
    const answer = await multipart(
      stack,
      { query: '{ tunnels(first: 3) { nodes @stream(initialCount: 1) { id } } }' },
      { 'accept-encoding': 'gzip, br' },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-encoding')).toBeNull();
    const [first, ...rest] = answer.payloads;
    const three = (seed.tunnels ?? []).slice(0, 3).map((t) => ({ id: t.id }));
    expect(first).toEqual({ data: { tunnels: { nodes: three.slice(0, 1) } }, hasNext: true });
    expect(rest.flatMap((p) => p.incremental ?? []).flatMap((i) => i.items)).toEqual(three.slice(1));
    expect(rest.at(-1)?.hasNext).toBe(false);
    expect(answer.upstreamCalls).toEqual({ predicted: 1, made: 1 });
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
  });

  it('the operation deadline covers the deferred fragment: it ends in UPSTREAM_TIMEOUT, the rest stays', async () => {
    const short = await startStack({ accounts: { [KEY]: seed }, env: { OPERATION_TIMEOUT_MS: '500' } });
    try {
      short.sandbox.setLatency('getBackend', 5_000);
      const answer = await multipart(short, { query: DEFERRED, variables: route });
      const [first, last] = answer.payloads;
      expect(first).toEqual({ data: initial, hasNext: true });
      expect(last).toMatchObject({
        incremental: [
          {
            data: { httpsEdgeRouteBackend: null },
            path: [],
            errors: [{ path: ['httpsEdgeRouteBackend'], extensions: { code: 'UPSTREAM_TIMEOUT' } }],
          },
        ],
        hasNext: false,
      });
      // The deferred call that timed out was started: it counts.
      expect(answer.upstreamCalls).toEqual({ predicted: 2, made: 2 });
    } finally {
      await short.close();
    }
  });
});

describe('@defer with limits and persisted operations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'defer-persisted-'));
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ deferred: DEFERRED }));
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: seed },
      env: { PERSISTED_OPERATIONS_FILE: manifest, PERSISTED_OPERATIONS_ONLY: 'true' },
    });
  });
  afterAll(async () => {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a deferred operation of the manifest runs by its id, incrementally', async () => {
    const answer = await multipart(stack, { documentId: 'deferred', variables: route });
    expect(answer.status).toBe(200);
    expect(answer.payloads).toEqual([
      { data: initial, hasNext: true },
      { incremental: [{ data: module, path: [], label: 'module' }], hasNext: false },
    ]);
    expect(answer.upstreamCalls).toEqual({ predicted: 2, made: 2 });
  });

  it('with PERSISTED_OPERATIONS_ONLY a deferred query sent as text is refused', async () => {
    stack.sandbox.resetCalls();
    const answer = await stack.gql(DEFERRED, route);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('@defer counts against MAX_DIRECTIVES like any directive', async () => {
    const open = await startStack({ accounts: { [KEY]: seed }, env: { MAX_DIRECTIVES: '2' } });
    try {
      const three = '{ ... @defer { __typename } ... @defer { __typename } ... @defer { __typename } }';
      const answer = await open.gql(three);
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/directives/i),
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
      expect(open.sandbox.calls()).toBe(0);
    } finally {
      await open.close();
    }
  });
});
