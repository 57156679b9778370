// A @defer or @stream answer says on its last payload (hasNext: false) what the whole operation was
// predicted to call upstream and made, deferred lookups included, over multipart HTTP, SSE and
// graphql-ws; the payloads before it carry nothing (the harness checks both, support/upstream-calls.ts).
import { createServer } from 'node:http';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleIdsFrom } from '../../src/gateway/graphiql';
import { useCostExtensions } from '../../src/gateway/limits';
import { demoData } from '../../src/sandbox';
import { CallLedger } from '../../src/upstream';
import { KEY, listen, type Stack, startStack } from '../support/stack';
import { postStreamed, type StreamTransport } from '../support/streamed-answers';
import { run, wsClient } from '../support/websocket';

const seed = demoData();
const ids = exampleIdsFrom(seed);
if (!ids) throw new Error('the demo data has no route with a backend');
const route = { edgeId: ids.edgeId, routeId: ids.routeId };
const backendId = seed.edges?.find((e) => e.id === ids.edgeId)?.routes.find((r) => r.id === ids.routeId)
  ?.backend?.backendId;

const DEFERRED = `query Deferred($edgeId: ID!, $routeId: ID!) {
  tunnels(first: 2) { nodes { id } }
  ... @defer(label: "module") {
    httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled backend { id } }
  }
}`;

const initial = { tunnels: { nodes: (seed.tunnels ?? []).slice(0, 2).map((t) => ({ id: t.id })) } };
const module = { httpsEdgeRouteBackend: { enabled: true, backend: { id: backendId } } };

describe('upstreamCalls of a deferred answer', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: seed }, websocket: true });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.resetCalls();
    // The deferred fragment's upstream call answers late, so its payload comes well after the first.
    stack.sandbox.setLatency('getBackend', 300);
  });

  it.each<StreamTransport>(['multipart', 'sse'])(
    'over %s the last payload says what the whole operation made, the deferred lookup included',
    async (transport) => {
      const answer = await postStreamed(
        stack.url,
        { query: DEFERRED, variables: route },
        { transport, key: KEY },
      );
      // The harness has checked that the payload before the last carries no figures.
      expect(answer.payloads).toEqual([
        { data: initial, hasNext: true },
        { incremental: [{ data: module, path: [], label: 'module' }], hasNext: false },
      ]);
      // One call for the first payload, one for the deferred fragment (300 ms later).
      expect(answer.upstreamCalls).toEqual({ predicted: 2, made: 2 });
      expect(stack.sandbox.calls()).toBe(2);
    },
  );

  it('over graphql-ws the last payload says what the operation made, the deferred lookup included', async () => {
    const client = wsClient(stack.wsUrl, { key: KEY });
    try {
      const outcome = await run(client, DEFERRED, route);
      expect(outcome.error).toBeUndefined();
      expect(outcome.results).toEqual([
        { data: initial, hasNext: true },
        { incremental: [{ data: module, path: [], label: 'module' }], hasNext: false },
      ]);
      expect(outcome.upstreamCalls).toEqual([undefined, { predicted: 2, made: 2 }]);
      expect(stack.sandbox.calls()).toBe(2);
    } finally {
      await client.dispose();
    }
  });
});

describe('a stream whose last payload is empty', () => {
  // No list of the schema ends after its last item is sent; a list streamed from an async generator does:
  // its last payload is a bare { hasNext: false }, which must carry the totals.
  // The operation's ledger, judged at 3 calls; each letter yielded counts as a call started.
  let calls = new CallLedger();
  // The list ends once the payload of its last item has left: nothing is left to send with the end.
  let end = () => {};
  const lastItemSent: Plugin = {
    onExecute: () => ({
      onExecuteDone: () => ({ onNext: ({ result }) => void ('incremental' in result && end()) }),
    }),
  };
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { letters: [String!]! }',
      resolvers: {
        Query: {
          async *letters() {
            for (const letter of ['a', 'b']) {
              calls.attempted(true);
              yield letter;
            }
            await new Promise<void>((resolve) => {
              end = resolve;
            });
          },
        },
      },
    }),
    context: () => ({ upstreamScope: { deadline: Number.POSITIVE_INFINITY, ledger: calls } }),
    plugins: [lastItemSent, useCostExtensions() as Plugin, useDeferStream()],
  });
  const server = createServer(yoga);
  let url = '';
  beforeAll(async () => {
    url = `${await listen(server)}/graphql`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each<StreamTransport>(['multipart', 'sse'])(
    'over %s the totals ride on that bare payload',
    async (transport) => {
      calls = new CallLedger();
      calls.judge(3, true);
      const answer = await postStreamed(
        url,
        { query: '{ letters @stream(initialCount: 1) }' },
        { transport, key: KEY },
      );
      expect(answer.payloads).toEqual([
        { data: { letters: ['a'] }, hasNext: true },
        { incremental: [{ items: ['b'], path: ['letters', 1] }], hasNext: true },
        { hasNext: false },
      ]);
      expect(answer.upstreamCalls).toEqual({ predicted: 3, made: 2 });
    },
  );
});
