// The gateway's own upstream budget (UPSTREAM_RATE_LIMIT_PER_MIN) in one process: what a client
// sees (RATE_LIMITED with retryAfter, extensions.upstreamBudget, a stream's on its last payload),
// the share kept for writes, the metrics, and the stage's rules (wait within the deadline, else
// refuse; retries claim their own call; the live poller's calls claim as 'poll' and never wait).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transportOptions } from '../../src/app';
import { defaultConfig } from '../../src/config';
import { TUNNEL } from '../../src/resources';
import { type AccountSeed, newId, type Sandbox, startSandbox } from '../../src/sandbox';
import type { ClaimKind, RateBudget, Standing } from '../../src/shared-state';
import { listItemsRequest } from '../../src/upstream/api/items';
import type { UpstreamEvents } from '../../src/upstream/call/hooks';
import { upstreamKey } from '../../src/upstream/call/upstream-key';
import { UpstreamTransport } from '../../src/upstream/transport';
import { metric, sse, startLiveStack, until } from '../live/support';
import { budgetAfter } from '../support/budget';
import { KEY, type Stack, startStack } from '../support/stack';
import { postStreamed } from '../support/streamed-answers';

/** A scripted budget's standing (what the stage copies to the ledger; these tests read none of it). */
const STANDING: Standing = {
  remaining: 5,
  shares: {
    reads: { spent: 0, remaining: 5 },
    writes: { spent: 0, remaining: 5 },
    live: { spent: 0, remaining: 5 },
  },
};

const edge = newId('edghts');
const route = newId('edghtsrt');
const backend = newId('bkdtg');
const seed = (): AccountSeed => ({
  edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backend, enabled: true } }] }],
  backends: [backend],
});
const READ = `query($edgeId: ID!, $routeId: ID!) {
  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled }
}`;
const REPLACE = `mutation($input: ReplaceHttpsEdgeRouteBackendInput!) {
  replaceHttpsEdgeRouteBackend(input: $input) { __typename }
}`;

describe("a fresh gateway's first answer, the budget's defaults", () => {
  it('says 119 of 120 left: its one call, a read; then each call counts whatever its kind', async () => {
    const stack = await startStack({
      accounts: { [KEY]: seed() },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: defaultConfig().upstream.rateLimitPerMin.toString() },
    });
    try {
      const first = await stack.gql('{ tunnels(first: 1) { nodes { id } } }');
      expect(first.body.extensions?.upstreamBudget).toEqual({
        limit: 120,
        remaining: 119,
        shares: {
          reads: { spent: 1, remaining: 107 },
          writes: { spent: 0, remaining: 119 },
          live: { spent: 0, remaining: 30 },
        },
      });
      const write = await stack.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backend } });
      expect(write.body.extensions?.upstreamBudget).toEqual(budgetAfter(120, { reads: 1, writes: 1 }));
      const read = await stack.gql(READ, { edgeId: edge, routeId: route });
      expect(read.body.extensions?.upstreamBudget).toEqual(budgetAfter(120, { reads: 2, writes: 1 }));
    } finally {
      await stack.close();
    }
  });
});

describe('the upstream budget seen by clients', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed() },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '10' },
    });
  });
  afterAll(() => stack.close());

  it('spends reads up to the read share, then refuses up front with RATE_LIMITED and retryAfter, no call sent', async () => {
    // limit 10: reads may fill 9 calls of the window, the last one is kept for writes.
    for (let i = 1; i <= 9; i += 1) {
      const { body } = await stack.gql(READ, { edgeId: edge, routeId: route });
      expect(body.data).toEqual({ httpsEdgeRouteBackend: { enabled: true } });
      // Its calls counted down from 10, the read share from 9.
      expect(body.extensions).toEqual({ upstreamBudget: budgetAfter(10, { reads: i }) });
    }
    const refused = await stack.gql(READ, { edgeId: edge, routeId: route });
    expect(refused.body.data).toBeUndefined();
    expect(refused.upstreamCalls).toEqual({ predicted: 1, made: 0 });
    const error = refused.body.errors?.[0];
    expect(error?.extensions?.code).toBe('RATE_LIMITED');
    expect(error?.extensions?.upstream).toBeUndefined();
    // The oldest call leaves the window 60 s after it was made, a few seconds ago at most.
    const retryAfter = error?.extensions?.retryAfter as number;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(40);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.extensions).toBeUndefined();
    expect(refused.status).toBe(429);
    expect(stack.sandbox.calls('getBackend', KEY)).toBe(9);

    // The last call of the window is a write's.
    const write = await stack.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backend } });
    expect(write.body.data).toEqual({
      replaceHttpsEdgeRouteBackend: { __typename: 'ReplaceHttpsEdgeRouteBackendPayload' },
    });
    expect(write.body.extensions).toEqual({ upstreamBudget: budgetAfter(10, { reads: 9, writes: 1 }) });
    const second = await stack.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backend } });
    expect(second.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(stack.sandbox.calls('replaceBackend', KEY)).toBe(1);

    const metrics = await (await fetch(stack.url.replace('/graphql', '/metrics'))).text();
    expect(metrics).toContain('gateway_upstream_budget_calls_total{route="getBackend",kind="read"} 9');
    expect(metrics).toContain(
      'gateway_upstream_budget_calls_total{route="replaceBackend",kind="mutation"} 1',
    );
    // Both refusals came before any call was claimed.
    expect(metrics).not.toContain('gateway_upstream_budget_refusals_total{route="getBackend"');
    expect(metrics).not.toContain('gateway_upstream_budget_refusals_total{route="replaceBackend"');
    expect(metrics).not.toContain(KEY);
  });
});

describe("a streamed answer's upstreamBudget", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed() },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '10' },
    });
  });
  afterAll(() => stack.close());

  const DEFERRED = `query($edgeId: ID!, $routeId: ID!) {
    tunnels(first: 1) { nodes { id } }
    ... @defer { httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled } }
  }`;

  it('rides on the last payload, after the deferred call claimed, as upstreamCalls does', async () => {
    // Two read claims a stream (the list, then the deferred backend): 2 calls spent, then 4.
    for (const [transport, reads] of [
      ['multipart', 2],
      ['sse', 4],
    ] as const) {
      const answer = await postStreamed(
        stack.url,
        { query: DEFERRED, variables: { edgeId: edge, routeId: route } },
        { transport, key: KEY },
      );
      expect(answer.payloads).toEqual([
        { data: { tunnels: { nodes: [] } }, hasNext: true },
        {
          incremental: [{ data: { httpsEdgeRouteBackend: { enabled: true } }, path: [] }],
          hasNext: false,
          extensions: { upstreamBudget: budgetAfter(10, { reads }) },
        },
      ]);
      expect(answer.upstreamCalls).toEqual({ predicted: 2, made: 2 });
    }
    expect(stack.sandbox.calls(undefined, KEY)).toBe(4);
  });
});

/** A budget that refuses the first `refusals` claims for `retryInMs`, then grants; it records every claim. */
function scriptedBudget(refusals: number, retryInMs: number): RateBudget & { kinds: ClaimKind[] } {
  const kinds: ClaimKind[] = [];
  return {
    kinds,
    async take(_digest, kind) {
      kinds.push(kind);
      return kinds.length <= refusals
        ? { granted: false, retryInMs, standing: STANDING }
        : { granted: true, remaining: 5, at: Date.now(), standing: STANDING };
    },
    // The transport's stages never ask it.
    pollWait: async () => 0,
    waitFor: async () => 0,
    reserve: async (digest) => ({ granted: true, reservation: { id: 'r', digest, held: 0, used: 0 } }),
    release: async () => undefined,
  };
}

describe('the budget stage', () => {
  let sandbox: Sandbox;
  const getBackend = {
    route: 'getBackend',
    method: 'GET',
    segments: ['edges', 'https', edge, 'routes', route, 'backend'],
  } as const;
  beforeAll(async () => {
    sandbox = await startSandbox({ edgesWritable: true, rateLimit: false, accounts: { [KEY]: seed() } });
  });
  afterAll(() => sandbox.close());

  /** A transport over the stand-in with `store` as its budget; the budget's outcomes land in `outcomes`. */
  const transportWith = (store: RateBudget, outcomes: string[] = []) =>
    new UpstreamTransport({
      ...transportOptions(defaultConfig(), sandbox.url),
      retryBaseMs: 1,
      budget: { store, limitPerMin: 10 },
      events: { budget: (e) => outcomes.push(e.outcome) } satisfies UpstreamEvents,
    });

  it('waits for the next free call when it fits the deadline, then sends once', async () => {
    sandbox.resetCalls();
    const store = scriptedBudget(1, 150);
    const outcomes: string[] = [];
    const transport = transportWith(store, outcomes);
    const response = await transport
      .scoped({ deadline: performance.now() + 5_000 })
      .send(upstreamKey(KEY), getBackend);
    expect(response.status).toBe(200);
    expect(store.kinds).toEqual(['read', 'read']);
    expect(outcomes).toEqual(['waited', 'granted']);
    expect(sandbox.calls()).toBe(1);
    await transport.close();
  });

  it('refuses at once with RATE_LIMITED and the exact retryAfter when the wait outlasts the deadline', async () => {
    sandbox.resetCalls();
    const store = scriptedBudget(1, 2_500);
    const outcomes: string[] = [];
    const transport = transportWith(store, outcomes);
    const failure = await transport
      .scoped({ deadline: performance.now() + 1_000 })
      .send(upstreamKey(KEY), getBackend)
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfter: 3 } });
    expect(store.kinds).toEqual(['read']);
    expect(outcomes).toEqual(['refused']);
    expect(sandbox.calls()).toBe(0);
    await transport.close();
  });

  it('makes every retry claim a call of its own', async () => {
    sandbox.resetCalls();
    sandbox.inject('getBackend', { kind: 'status', status: 503 });
    const store = scriptedBudget(0, 1);
    const transport = transportWith(store);
    const response = await transport
      .scoped({ deadline: performance.now() + 5_000 })
      .send(upstreamKey(KEY), getBackend);
    expect(response.status).toBe(200);
    expect(sandbox.calls()).toBe(2);
    expect(store.kinds).toEqual(['read', 'read']);
    await transport.close();
  });

  it("claims writes as 'mutation' and the poller's pages as 'poll', which never wait", async () => {
    sandbox.resetCalls();
    const store = scriptedBudget(1, 10);
    const transport = transportWith(store);
    const poll = listItemsRequest(TUNNEL, { limit: 100, origin: 'poll' });
    // No deadline at all (the poller runs outside operations): a poll still does not wait.
    const failure = await transport.send(upstreamKey(KEY), poll).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfter: 1 } });
    expect((await transport.send(upstreamKey(KEY), poll)).status).toBe(200);
    const write = {
      route: 'deleteBackend',
      method: 'DELETE',
      segments: ['edges', 'https', edge, 'routes', route, 'backend'],
    } as const;
    expect((await transport.send(upstreamKey(KEY), write)).status).toBe(204);
    expect(store.kinds).toEqual(['poll', 'poll', 'mutation']);
    expect(sandbox.calls()).toBe(2);
    await transport.close();
  });
});

describe("the live poller's calls", () => {
  it("claim the gateway-wide budget as 'poll'", async () => {
    const stack = await startLiveStack({
      accounts: { [KEY]: {} },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '120' },
    });
    try {
      const subscriber = await sse(stack.url, KEY);
      await until(
        async () =>
          (await metric(stack.gateway, 'gateway_upstream_budget_calls_total', { kind: 'poll' })) >= 1,
        'a poll claimed from the budget',
      );
      expect(await metric(stack.gateway, 'gateway_upstream_budget_calls_total', { kind: 'read' })).toBe(0);
      subscriber.close();
    } finally {
      await stack.close();
    }
  });
});
