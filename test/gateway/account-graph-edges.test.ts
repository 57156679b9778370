// The account graph's second step, edges and backends: httpsEdges and httpsEdge with their routes
// and backend modules, every field compared with the stand-in's JSON; the five backends as nodes
// (every field, every Ref among them resolving); the exact calls of an edge page with every route's
// backend node (one edges call, one GET per distinct backend, none per route); a retired account's
// edges (ERR_NGROK_7008) an empty connection.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoData } from '../../src/sandbox';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';
import { type Json, pairs, text, upstreamItems } from '../support/upstream-json';

const EDGE_FIELDS = `id description metadata createdAt hostports
  routes { id edgeId matchType match description metadata createdAt
    backend { edgeId routeId enabled backend { id uri } } }`;

const backendFields = (tunnelNodes: boolean) => `__typename id
  ... on TunnelGroupBackend { description metadata createdAt labels { name value } tunnels { id uri ${tunnelNodes ? 'node { id }' : ''} } }
  ... on FailoverBackend { description metadata createdAt backends { id uri node { id } } }
  ... on WeightedBackend { description metadata createdAt backends { weight backend { id uri node { id } } } }
  ... on HttpResponseBackend { description metadata createdAt statusCode body headers { name value } }
  ... on StaticBackend { description metadata createdAt address tlsEnabled }`;

const SEGMENTS = ['tunnel_group', 'failover', 'weighted', 'http_response', 'static'] as const;
const TYPES = [
  'TunnelGroupBackend',
  'FailoverBackend',
  'WeightedBackend',
  'HttpResponseBackend',
  'StaticBackend',
];

const expectedEdge = (e: Json): Json => ({
  id: e.id,
  description: text(e.description),
  metadata: text(e.metadata),
  createdAt: e.created_at,
  hostports: e.hostports,
  routes: (e.routes as Json[]).map((r) => ({
    id: r.id,
    edgeId: r.edge_id,
    matchType: r.match_type,
    match: r.match,
    description: text(r.description),
    metadata: text(r.metadata),
    createdAt: r.created_at,
    backend: r.backend
      ? {
          edgeId: e.id,
          routeId: r.id,
          enabled: (r.backend as Json).enabled,
          backend: (r.backend as Json).backend,
        }
      : null,
  })),
});

/** A Ref as the schema shows it, its node the target's id (every target of these fixtures exists). */
const joined = (ref: Json): Json => ({ id: ref.id, uri: ref.uri, node: { id: ref.id } });
const uriOf = (base: string, id: string) =>
  `${base}/backends/${SEGMENTS[['bkdtg', 'bkdfo', 'bkdwd', 'bkdhr', 'bkdsc'].indexOf(id.split('_')[0] ?? '')]}/${id}`;

function expectedBackend(b: Json, typename: string, tunnelNodes = false): Json {
  const common = {
    __typename: typename,
    id: b.id,
    description: text(b.description),
    metadata: text(b.metadata),
    createdAt: b.created_at,
  };
  const api = 'https://api.ngrok.com';
  switch (typename) {
    case 'TunnelGroupBackend':
      return {
        ...common,
        labels: pairs(b.labels),
        tunnels: (b.tunnels as Json[]).map((t) => (tunnelNodes ? joined(t) : { id: t.id, uri: t.uri })),
      };
    case 'FailoverBackend':
      return {
        ...common,
        backends: (b.backends as string[]).map((id) => joined({ id, uri: uriOf(api, id) })),
      };
    case 'WeightedBackend':
      return {
        ...common,
        backends: Object.entries(b.backends as Record<string, number>)
          .sort(([a], [c]) => (a < c ? -1 : 1))
          .map(([id, weight]) => ({ weight, backend: joined({ id, uri: uriOf(api, id) }) })),
      };
    case 'HttpResponseBackend':
      return { ...common, statusCode: b.status_code, body: text(b.body), headers: pairs(b.headers) };
    default:
      return { ...common, address: b.address, tlsEnabled: (b.tls as Json).enabled };
  }
}

describe('HTTPS edges and their backends', () => {
  let stack: Stack;
  let edges: Json[];
  let backends: Map<string, { json: Json; typename: string }>;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: demoData(), [OTHER_KEY]: { ...demoData({ seed: 2 }), edgesRetired: true } },
      env: { MAX_UPSTREAM_CALLS_PER_OPERATION: '1000', MAX_RESPONSE_OBJECTS: '100000' },
    });
    edges = await upstreamItems(stack, '/edges/https');
    backends = new Map();
    for (const [i, segment] of SEGMENTS.entries()) {
      for (const b of await upstreamItems(stack, `/backends/${segment}`))
        backends.set(String(b.id), { json: b, typename: TYPES[i] ?? '' });
    }
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('lists the edges with their routes and modules, every field as the upstream sends it, in one call', async () => {
    const { body, upstreamCalls } = await stack.gql(
      `{ httpsEdges { nodes { ${EDGE_FIELDS} } pageInfo { hasNextPage } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(edges.length).toBe(3);
    expect(dataOf(body, 'httpsEdges')).toEqual({
      nodes: edges.map(expectedEdge),
      pageInfo: { hasNextPage: false },
    });
    expect([stack.sandbox.calls('listHttpsEdges'), stack.sandbox.calls()]).toEqual([1, 1]);
    expect(upstreamCalls?.made).toBe(1);
  });

  it('reads one edge by id, null for an unknown one; an edge already listed costs no call', async () => {
    const [edge] = edges;
    const { body } = await stack.gql(
      `query($id: ID!) { httpsEdge(id: $id) { ${EDGE_FIELDS} } gone: httpsEdge(id: "edghts_2Zzzzzzzzzzzzzzzzzzzzzzzzzz") { id } }`,
      { id: edge?.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ httpsEdge: expectedEdge(edge as Json), gone: null });
    expect(stack.sandbox.calls('getHttpsEdge')).toBe(2);
    stack.sandbox.resetCalls();
    const again = await stack.gql(
      `query($id: ID!) { httpsEdges { nodes { id } } httpsEdge(id: $id) { id } }`,
      {
        id: edge?.id,
      },
    );
    expect(again.body.data?.httpsEdge).toEqual({ id: edge?.id });
    expect([stack.sandbox.calls('listHttpsEdges'), stack.sandbox.calls()]).toEqual([1, 1]);
  });

  it('an edge page with every route backend node: one edges call and one GET per distinct backend', async () => {
    const { body, upstreamCalls } = await stack.gql(
      `{ httpsEdges(first: 3) { nodes { id routes { id backend { backend { id node { ${backendFields(false)} } } } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const routes = edges.flatMap((e) => e.routes as Json[]);
    const targets = routes.flatMap((r) =>
      r.backend ? [String(((r.backend as Json).backend as Json).id)] : [],
    );
    const distinct = new Set(targets);
    // Fixture check: modules on routes of all five kinds.
    expect(new Set([...distinct].map((id) => id.split('_')[0])).size).toBe(5);
    const nodes = dataOf<{ nodes: { routes: { backend: { backend: { node: Json } } | null }[] }[] }>(
      body,
      'httpsEdges',
    ).nodes;
    const got = nodes.flatMap((n) => n.routes.flatMap((r) => (r.backend ? [r.backend.backend.node] : [])));
    expect(got.map((n) => n.id)).toEqual(targets);
    for (const node of got) {
      const upstream = backends.get(String(node.id));
      expect(node).toEqual(expectedBackend(upstream?.json ?? {}, upstream?.typename ?? ''));
    }
    // One list, one GET per distinct backend; the backends their nodes hold (failover, weighted) and the
    // tunnels of the tunnel groups come in the next rounds, each id once.
    const held = new Set<string>();
    for (const id of distinct) {
      const b = backends.get(id)?.json ?? {};
      for (const x of Array.isArray(b.backends) ? b.backends : Object.keys((b.backends ?? {}) as Json))
        held.add(String(x));
    }
    const gets = new Set([...distinct, ...held]);
    const getCalls = SEGMENTS.reduce(
      (sum, s) =>
        sum +
        stack.sandbox.calls(
          `get${{ tunnel_group: 'TunnelGroup', failover: 'Failover', weighted: 'Weighted', http_response: 'HttpResponse', static: 'Static' }[s]}Backend` as 'getStaticBackend',
        ),
      0,
    );
    expect(stack.sandbox.calls('listHttpsEdges')).toBe(1);
    expect(getCalls).toBe(gets.size);
    expect(stack.sandbox.calls('getHttpsEdge')).toBe(0);
    expect(stack.sandbox.calls()).toBe(1 + gets.size);
    expect(upstreamCalls?.made).toBe(1 + gets.size);
    expect(upstreamCalls && upstreamCalls.made <= upstreamCalls.predicted).toBe(true);
  });

  it('the route backends alone: one edges call plus one GET per distinct backend, none per route', async () => {
    const { body, upstreamCalls } = await stack.gql(
      '{ httpsEdges(first: 3) { nodes { routes { backend { enabled backend { node { __typename id } } } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const targets = new Set(
      edges.flatMap((e) =>
        (e.routes as Json[]).flatMap((r) => (r.backend ? [((r.backend as Json).backend as Json).id] : [])),
      ),
    );
    expect(stack.sandbox.calls()).toBe(1 + targets.size);
    expect(stack.sandbox.calls('getBackend')).toBe(0);
    expect(upstreamCalls?.made).toBe(1 + targets.size);
    // The planner: one list, and one GET for each route it may hold (10 on each of the 3 edges at most).
    expect(upstreamCalls?.predicted).toBe(1 + 3 * 10);
  });

  it('each backend by node(id), every Ref it holds resolving (its tunnels: one list of the newest)', async () => {
    for (const [id, { json, typename }] of backends) {
      stack.sandbox.resetCalls();
      const { body, upstreamCalls } = await stack.gql(
        `query($id: ID!) { node(id: $id) { ${backendFields(true)} } }`,
        { id },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.node).toEqual(expectedBackend(json, typename, true));
      const held = Array.isArray(json.backends) ? json.backends : Object.keys((json.backends ?? {}) as Json);
      const tunnels = (json.tunnels as Json[] | undefined)?.length ?? 0;
      // Its tunnels: one GET for one, else one list of the newest 100 (which holds them all here).
      const tunnelCalls = tunnels === 0 ? 0 : 1;
      expect([id, upstreamCalls?.made]).toEqual([id, 1 + new Set(held).size + tunnelCalls]);
      expect(upstreamCalls && upstreamCalls.made <= upstreamCalls.predicted).toBe(true);
    }
  });

  it('every backend by node(id), and nodes over mixed ids of the new kinds: one GET each', async () => {
    const ids = [...backends.keys()];
    const { body, upstreamCalls } = await stack.gql(
      `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`,
      { ids },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.nodes).toEqual(ids.map((id) => ({ __typename: backends.get(id)?.typename, id })));
    expect(stack.sandbox.calls()).toBe(ids.length);
    expect(upstreamCalls).toEqual({ predicted: ids.length, made: ids.length });
  });

  it('Tunnel.backends resolves to the tunnel group, which lists that tunnel', async () => {
    const { body } = await stack.gql(
      '{ tunnels(first: 30) { nodes { id labels { name value } backends { id node { ... on TunnelGroupBackend { labels { name value } tunnels { id } } } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const labeled = dataOf<{ nodes: Json[] }>(body, 'tunnels').nodes.filter((n) => n.backends !== null);
    expect(labeled.length).toBeGreaterThan(0);
    for (const tunnel of labeled) {
      for (const b of tunnel.backends as { node: { labels: Json[]; tunnels: Json[] } }[]) {
        expect(b.node.tunnels).toContainEqual({ id: tunnel.id });
        for (const label of b.node.labels) expect(tunnel.labels).toContainEqual(label);
      }
    }
  });

  it('a deleted backend is null (its GET answers 404); an undeclared kind is null with no call', async () => {
    const { body } = await stack.gql(
      `{ gone: node(id: "bkdsc_2Zzzzzzzzzzzzzzzzzzzzzzzzzz") { id } nope: node(id: "usr_2Zzzzzzzzzzzzzzzzzzzzzzzzzz") { id } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ gone: null, nope: null });
    expect([stack.sandbox.calls('getStaticBackend'), stack.sandbox.calls()]).toEqual([1, 1]);
  });

  it("a retired account's edges (ERR_NGROK_7008) are an empty connection, not an error", async () => {
    const { body } = await stack.gql(
      '{ httpsEdges { nodes { id } pageInfo { hasNextPage endCursor } } httpsEdge(id: "edghts_2Zzzzzzzzzzzzzzzzzzzzzzzzzz") { id } }',
      undefined,
      { key: OTHER_KEY },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      httpsEdges: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
      httpsEdge: null,
    });
    expect([
      stack.sandbox.calls('listHttpsEdges', OTHER_KEY),
      stack.sandbox.calls('getHttpsEdge', OTHER_KEY),
    ]).toEqual([1, 1]);
  });
});
