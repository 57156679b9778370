// The example operations (src/gateway/graphiql/examples.ts: what GraphiQL opens with and the README shows,
// what .graphqlrc.yml points tools at, what the generated client uses) run against the demo data
// with exact results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_OPERATIONS, exampleIdsFrom } from '../../src/gateway/graphiql';
import { demoData, type UpstreamTunnel } from '../../src/sandbox';
import { sse } from '../live/support';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

const seed = demoData();
const ids = exampleIdsFrom(seed);
const tunnels = seed.tunnels ?? [];
const operations = new Map(EXAMPLE_OPERATIONS.map((o) => [o.name, o.document]));
const doc = (name: string) => operations.get(name) ?? '';

function tunnelFields(t: UpstreamTunnel) {
  return {
    id: t.id,
    publicUrl: t.public_url ?? null,
    proto: t.proto ? t.proto.toUpperCase() : null,
    region: t.region,
    startedAt: t.started_at,
    forwardsTo: t.forwards_to,
    metadata: t.metadata ?? null,
    labels: t.labels
      ? Object.keys(t.labels)
          .sort()
          .map((name) => ({ name, value: t.labels?.[name] }))
      : null,
  };
}

interface Joined {
  id: string;
  tunnelSession: { node: { os: string } | null } | null;
  domain: { node: { domain: string } | null } | null;
  tcpAddr: { node: { addr: string } | null } | null;
}

describe('the example operations', () => {
  let stack: Stack;
  let base: string;
  const backendUri = (id: string) => `${base}/backends/tunnel_group/${id}`;

  beforeAll(async () => {
    stack = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed } });
    base = stack.sandbox.url;
  });
  afterAll(() => stack.close());

  it('are the thirteen named operations, in GraphiQL’s tab order', () => {
    expect([...operations.keys()]).toEqual([
      'Endpoints',
      'Agents',
      'CreateEndpoint',
      'TunnelsPage',
      'OneTunnel',
      'ByIds',
      'BackendModule',
      'ReplaceBackend',
      'DeleteBackend',
      'EdgeRoutes',
      'EndpointEvents',
      'AgentEvents',
      'TunnelEvents',
    ]);
    expect(ids).toBeDefined();
  });

  it('EdgeRoutes resolves each route backend of the edge: its GET, then one GET per backend', async () => {
    stack.sandbox.resetCalls();
    const { body, upstreamCalls } = await stack.gql(doc('EdgeRoutes'), { id: ids?.edgeId });
    expect(body.errors).toBeUndefined();
    const edge = seed.edges?.find((e) => e.id === ids?.edgeId);
    const routes = (
      dataOf(body, 'httpsEdge') as {
        routes: { backend: { backend: { id: string; node: { __typename: string } } } | null }[];
      }
    ).routes;
    const named = routes.flatMap((r) => (r.backend ? [r.backend.backend] : []));
    expect(named.every((b) => b.node.__typename.endsWith('Backend'))).toBe(true);
    expect(named.map((b) => b.id)).toEqual(
      edge?.routes.flatMap((r) => (r.backend ? [r.backend.backendId] : [])),
    );
    expect(upstreamCalls?.made).toBe(1 + new Set(named.map((b) => b.id)).size);
  });

  it('Agents lists online agents and joins each endpoint to its agent, domain and address', async () => {
    stack.sandbox.resetCalls();
    const { body } = await stack.gql(doc('Agents'), { first: 10 });
    expect(body.errors).toBeUndefined();
    const listed = (c: 'tunnel_sessions' | 'reserved_domains' | 'reserved_addrs') =>
      new Map(stack.sandbox.listed(KEY, c).map((item) => [item.id, item]));
    const [sessions, domains, addrs] = [
      listed('tunnel_sessions'),
      listed('reserved_domains'),
      listed('reserved_addrs'),
    ];
    const data = body.data as { tunnelSessions: { nodes: { id: string }[] }; endpoints: { nodes: Joined[] } };
    expect(data.tunnelSessions.nodes.map((n) => n.id)).toEqual([...sessions.keys()].slice(0, 10));
    const upstream = stack.sandbox.listEndpoints(KEY).slice(0, 10);
    expect(data.endpoints.nodes.map((n) => n.id)).toEqual(upstream.map((e) => e.id));
    for (const [i, e] of upstream.entries()) {
      const node = data.endpoints.nodes[i];
      expect(node?.tunnelSession?.node?.os ?? null).toBe(
        sessions.get(String(e.tunnel_session?.id))?.os ?? null,
      );
      expect(node?.domain?.node?.domain ?? null).toBe(domains.get(String(e.domain?.id))?.domain ?? null);
      expect(node?.tcpAddr?.node?.addr ?? null).toBe(addrs.get(String(e.tcp_addr?.id))?.addr ?? null);
    }
    expect(data.endpoints.nodes.filter((n) => n.domain && n.tcpAddr === null).length).toBeGreaterThan(0);
    // The two lists, then one filtered call for the agents not on the first page, domains and addresses.
    expect(stack.sandbox.calls()).toBe(5);
  });

  it('TunnelsPage pages through the tunnels, newest first', async () => {
    const first = await stack.gql(doc('TunnelsPage'), { first: 2 });
    const page = (first.body.data?.tunnels ?? {}) as {
      edges: { cursor: string; node: unknown }[];
      pageInfo: { hasNextPage: boolean; endCursor: string };
    };
    expect(first.body).toEqual({
      data: {
        tunnels: {
          edges: tunnels.slice(0, 2).map((t) => ({ cursor: expect.any(String), node: tunnelFields(t) })),
          pageInfo: { hasNextPage: true, endCursor: page.edges[1]?.cursor },
        },
      },
    });
    const next = await stack.gql(doc('TunnelsPage'), { first: 2, after: page.pageInfo.endCursor });
    expect(next.body.data?.tunnels).toMatchObject({
      edges: tunnels.slice(2, 4).map((t) => ({ node: tunnelFields(t) })),
      pageInfo: { hasNextPage: true },
    });
  });

  it('OneTunnel reads an agent tunnel and a labeled one, with every field', async () => {
    const agent = tunnels.find((t) => t.proto !== undefined);
    const labeled = tunnels.find((t) => t.labels !== undefined);
    for (const t of [agent, labeled]) {
      if (!t) throw new Error('the demo data lacks a kind of tunnel');
      const { body } = await stack.gql(doc('OneTunnel'), { id: t.id });
      expect(body).toEqual({
        data: {
          tunnel: {
            ...tunnelFields(t),
            tunnelSession: { id: t.tunnel_session.id, uri: `${base}/tunnel_sessions/${t.tunnel_session.id}` },
            endpoint: t.endpoint ? { id: t.endpoint.id, uri: `${base}/endpoints/${t.endpoint.id}` } : null,
            backends: t.backends ? t.backends.map((b) => ({ id: b.id, uri: backendUri(b.id) })) : null,
          },
        },
      });
    }
  });

  it('ByIds resolves a node by id and a list of a tunnel and an endpoint', async () => {
    if (!ids) throw new Error('no example ids');
    const agent = tunnels.find((t) => t.id === ids.agentTunnelId);
    const { body } = await stack.gql(doc('ByIds'), {
      id: ids.agentTunnelId,
      ids: [ids.tunnelId, ids.endpointId],
    });
    expect(body).toEqual({
      data: {
        node: { __typename: 'Tunnel', id: ids.agentTunnelId, region: agent?.region },
        nodes: [
          { __typename: 'Tunnel', id: ids.tunnelId },
          { __typename: 'Endpoint', id: ids.endpointId },
        ],
      },
    });
    expect(ids.endpointId).toMatch(/^ep_/);
  });

  it('BackendModule, ReplaceBackend and DeleteBackend read, replace and remove a route’s module', async () => {
    if (!ids) throw new Error('no example ids');
    const route = { edgeId: ids.edgeId, routeId: ids.routeId };
    const before = seed.edges?.[0]?.routes[0]?.backend;
    expect((await stack.gql(doc('BackendModule'), route)).body).toEqual({
      data: {
        httpsEdgeRouteBackend: {
          ...route,
          enabled: true,
          backend: { id: before?.backendId, uri: backendUri(before?.backendId ?? '') },
        },
      },
    });

    const replaced = await stack.gql(doc('ReplaceBackend'), { ...route, backendId: ids.backendId });
    const module = {
      ...route,
      enabled: true,
      backend: { id: ids.backendId, uri: backendUri(ids.backendId) },
    };
    expect(replaced.body).toEqual({
      data: {
        replaceHttpsEdgeRouteBackend: {
          __typename: 'ReplaceHttpsEdgeRouteBackendPayload',
          backendModule: module,
        },
      },
    });
    expect((await stack.gql(doc('BackendModule'), route)).body).toEqual({
      data: { httpsEdgeRouteBackend: module },
    });

    const deleted = await stack.gql(doc('DeleteBackend'), route);
    expect(deleted.body).toEqual({
      data: { deleteHttpsEdgeRouteBackend: { __typename: 'DeleteHttpsEdgeRouteBackendPayload', ...route } },
    });
    expect((await stack.gql(doc('BackendModule'), route)).body).toEqual({
      data: { httpsEdgeRouteBackend: null },
    });
  });

  it('ReplaceBackend answers expected failures as data', async () => {
    if (!ids) throw new Error('no example ids');
    const bad = await stack.gql(doc('ReplaceBackend'), {
      edgeId: ids.edgeId,
      routeId: ids.routeId,
      backendId: 'not-a-backend',
    });
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data?.replaceHttpsEdgeRouteBackend).toEqual({
      __typename: 'InvalidInputError',
      code: 'INVALID_INPUT',
      message: 'backendId "not-a-backend" is not a backend id.',
      field: 'backendId',
    });
  });

  it('TunnelEvents with includeCurrent streams an ONLINE event for every tunnel online now', async () => {
    const subscriber = await sse(stack.url, KEY, { includeCurrent: true }, doc('TunnelEvents'));
    try {
      expect(subscriber.status).toBe(200);
      const results = await subscriber.received(tunnels.length);
      expect(results.every((r) => r.errors === undefined)).toBe(true);
      expect(subscriber.seen().sort()).toEqual(tunnels.map((t) => `ONLINE:${t.id}`).sort());
      const first = results[0]?.data?.tunnelEvents;
      const listed = tunnels.find((t) => t.id === first?.tunnelId);
      expect(first?.tunnel).toEqual({
        id: listed?.id,
        publicUrl: listed?.public_url ?? null,
        proto: listed?.proto ? listed.proto.toUpperCase() : null,
        region: listed?.region,
      });
    } finally {
      subscriber.close();
    }
  });

  it('EndpointEvents with includeCurrent streams an ONLINE event for every endpoint listed now', async () => {
    const listed = stack.sandbox.listEndpoints(KEY);
    const subscriber = await sse(stack.url, KEY, { includeCurrent: true }, doc('EndpointEvents'));
    try {
      expect(subscriber.status).toBe(200);
      const results = await subscriber.received(listed.length);
      expect(results.every((r) => r.errors === undefined)).toBe(true);
      const events = results.map(
        (r) =>
          (r.data as unknown as { endpointEvents: { kind: string; endpointId: string; endpoint: object } })
            .endpointEvents,
      );
      expect(events.map((e) => `${e.kind}:${e.endpointId}`)).toEqual(listed.map((e) => `ONLINE:${e.id}`));
      const first = listed[0];
      expect(events[0]?.endpoint).toEqual({
        id: first?.id,
        url: first?.url,
        type: first?.type.toUpperCase(),
        updatedAt: first?.updated_at ?? null,
      });
    } finally {
      subscriber.close();
    }
  });

  it('AgentEvents with includeCurrent streams an ONLINE event for every agent online now, newest first', async () => {
    const agents = stack.sandbox.listed(KEY, 'tunnel_sessions');
    const subscriber = await sse(stack.url, KEY, { includeCurrent: true }, doc('AgentEvents'));
    try {
      expect(subscriber.status).toBe(200);
      const results = await subscriber.received(agents.length);
      expect(results.every((r) => r.errors === undefined)).toBe(true);
      expect(subscriber.seen()).toEqual(agents.map((a) => `ONLINE:${a.id}`));
      const first = agents[0];
      expect(results[0]?.data?.tunnelSessionEvents?.tunnelSession).toEqual({
        id: first?.id,
        os: first?.os ?? null,
        agentVersion: first?.agent_version ?? null,
        region: first?.region ?? null,
        startedAt: first?.started_at,
      });
    } finally {
      subscriber.close();
    }
  });
});
