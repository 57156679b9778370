import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

describe('Ref.node: references fetched together', () => {
  let stack: Stack;
  // 130 tunnels: most have an agent endpoint; plus 60 cloud endpoints, so 150+ endpoints in all.
  const tunnels = makeTunnels(130, { seed: 11 });

  beforeAll(async () => {
    // Joins to tunnels are predicted at one GET per reference (/tunnels has no id filter): these
    // tests look at what the loaders really do, so the per-operation ceiling is out of their way.
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { MAX_UPSTREAM_CALLS_PER_OPERATION: '500' },
    });
    for (let i = 0; i < 60; i += 1) stack.sandbox.addEndpoint(KEY, { url: `https://c${i}.example.com` });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  const endpoints = () => stack.sandbox.listEndpoints(KEY);

  it('tunnels(first: 20) → endpoint.node costs 2 calls: the list and one filtered endpoints call', async () => {
    const { body, upstreamCalls } = await stack.gql(
      '{ tunnels(first: 20) { nodes { id endpoint { id node { __typename ... on Endpoint { id url trafficPolicy } } } } } }',
    );
    // Predicted exactly: the page, and one endpoint batch for its 20 references.
    expect(upstreamCalls).toEqual({ predicted: 2, made: 2 });
    const nodes = dataOf<{ nodes: { id: string; endpoint: { id: string; node: unknown } | null }[] }>(
      body,
      'tunnels',
    ).nodes;
    const byId = new Map(endpoints().map((e) => [e.id, e]));
    const withEndpoint = nodes.filter((n) => n.endpoint !== null);
    expect(withEndpoint.length).toBeGreaterThan(5);
    for (const n of withEndpoint) {
      const e = byId.get(n.endpoint?.id ?? '');
      expect(n.endpoint?.node).toEqual({
        __typename: 'Endpoint',
        id: e?.id,
        url: e?.url,
        trafficPolicy: null,
      });
    }
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
    expect(stack.sandbox.calls('listEndpoints')).toBe(1);
    expect(stack.sandbox.calls()).toBe(2);
  });

  it('endpoints → tunnel.node costs at most 2 calls: the list and one tunnels list', async () => {
    const { body, upstreamCalls } = await stack.gql(
      '{ endpoints(first: 80) { nodes { id tunnel { id node { __typename ... on Tunnel { id region } } } } } }',
    );
    // Predicted as the loader may need it: the page, the tunnels list, and a GET for each of the 80
    // references the list might miss.
    expect(upstreamCalls).toEqual({ predicted: 82, made: 2 });
    const nodes = dataOf<{ nodes: { tunnel: { id: string; node: unknown } | null }[] }>(
      body,
      'endpoints',
    ).nodes;
    const byId = new Map(tunnels.map((t) => [t.id, t]));
    const refs = nodes.filter((n) => n.tunnel !== null);
    expect(refs.length).toBeGreaterThan(10);
    for (const n of refs) {
      const t = byId.get(n.tunnel?.id ?? '');
      expect(n.tunnel?.node).toEqual({ __typename: 'Tunnel', id: t?.id, region: t?.region });
    }
    expect(stack.sandbox.calls('listEndpoints')).toBe(1);
    expect(stack.sandbox.calls('getTunnel')).toBe(0);
    expect(stack.sandbox.calls()).toBeLessThanOrEqual(2);
  });

  it('tunnels beyond the newest 100 are fetched one by one after the list; a single reference is one GET', async () => {
    // The three oldest agent endpoints: their tunnels are not among the newest 100 of 130.
    const old = endpoints()
      .filter((e) => e.type === 'agent')
      .slice(-3);
    const query = `query($urls: [String!]) { endpoints(filter: { urls: $urls }) { nodes { tunnel { id node { id } } } } }`;
    const { body } = await stack.gql(query, { urls: old.map((e) => e.url) });
    const refs = dataOf<{ nodes: { tunnel: { id: string; node: { id: string } } }[] }>(
      body,
      'endpoints',
    ).nodes;
    expect(refs.map((n) => n.tunnel.node.id).sort()).toEqual(old.map((e) => e.tunnel?.id).sort());
    expect([
      stack.sandbox.calls('listEndpoints'),
      stack.sandbox.calls('listTunnels'),
      stack.sandbox.calls('getTunnel'),
    ]).toEqual([1, 1, 3]);

    stack.sandbox.resetCalls();
    const one = await stack.gql(query, { urls: [old[0]?.url] });
    expect(dataOf<{ nodes: unknown[] }>(one.body, 'endpoints').nodes).toEqual([
      { tunnel: { id: old[0]?.tunnel?.id, node: { id: old[0]?.tunnel?.id } } },
    ]);
    expect([
      stack.sandbox.calls('listEndpoints'),
      stack.sandbox.calls('listTunnels'),
      stack.sandbox.calls('getTunnel'),
    ]).toEqual([1, 0, 1]);
  });

  it('150 endpoint references cost 2 endpoint calls (one per 100 ids), none fetched twice', async () => {
    const ids = endpoints()
      .slice(0, 150)
      .map((e) => e.id);
    expect(ids).toHaveLength(150);
    // nodes takes at most 100 ids: two lists in one operation make one batch of 150.
    const { body } = await stack.gql(
      'query($a: [ID!]!, $b: [ID!]!) { a: nodes(ids: $a) { id } b: nodes(ids: $b) { id } }',
      {
        a: ids.slice(0, 100),
        b: ids.slice(100),
      },
    );
    expect(body.errors).toBeUndefined();
    const got = [...dataOf<{ id: string }[]>(body, 'a'), ...dataOf<{ id: string }[]>(body, 'b')];
    expect(got.map((n) => n.id)).toEqual(ids);
    expect(stack.sandbox.calls('listEndpoints')).toBe(2);
    expect(stack.sandbox.calls()).toBe(2);
  });

  it('listed endpoints are never fetched again: endpoints plus refs to them cost 1 call', async () => {
    const ids = endpoints()
      .slice(0, 30)
      .map((e) => e.id);
    const { body } = await stack.gql(
      'query($ids: [ID!]!) { endpoints(first: 30) { nodes { id } } nodes(ids: $ids) { id } }',
      {
        ids,
      },
    );
    expect(dataOf<{ id: string }[]>(body, 'nodes').map((n) => n.id)).toEqual(ids);
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('a ref to a backend the account no longer has is null after its one GET; unknown ids are null', async () => {
    const labeled = tunnels.find((t) => t.backends !== undefined);
    const backend = labeled?.backends?.[0]?.id;
    const { body } = await stack.gql(
      'query($id: ID!) { tunnel(id: $id) { backends { id node { id } } } gone: node(id: "' +
        newId('ep') +
        '") { id } }',
      { id: labeled?.id },
    );
    expect(body.data).toEqual({ tunnel: { backends: [{ id: backend, node: null }] }, gone: null });
    expect(stack.sandbox.calls()).toBe(3);
    expect([
      stack.sandbox.calls('getTunnel'),
      stack.sandbox.calls('listEndpoints'),
      stack.sandbox.calls('getTunnelGroupBackend'),
    ]).toEqual([1, 1, 1]);
  });
});
