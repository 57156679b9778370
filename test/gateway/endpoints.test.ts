import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const PAGE = `query Page($first: Int, $after: String, $filter: EndpointFilter) {
  endpoints(first: $first, after: $after, filter: $filter) {
    edges { cursor node { id } }
    nodes { id url type typeName }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface Page {
  edges: { cursor: string; node: { id: string } }[];
  nodes: { id: string; url: string; type: string | null; typeName: string }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

describe('endpoints: the connection, its filter and endpoint(id)', () => {
  let stack: Stack;
  const tunnels = makeTunnels(30, { seed: 7 });
  const badStatuses = () => stack.of('attempt').filter((a) => a.status !== undefined && a.status >= 400);

  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels }, [OTHER_KEY]: { tunnels: makeTunnels(2, { seed: 9 }) } },
    });
    for (let i = 0; i < 5; i += 1) stack.sandbox.addEndpoint(KEY, { url: `https://cloud${i}.example.com` });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.resetCalls();
    stack.events.length = 0;
  });

  const all = () => stack.sandbox.listEndpoints(KEY);

  it('walks every endpoint newest first with first: 7, exact hasNextPage, one call a page', async () => {
    const expected = all().map((e) => e.id);
    expect(expected.length).toBeGreaterThan(20);
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const { body } = await stack.gql(PAGE, { first: 7, after });
      const page = dataOf<Page>(body, 'endpoints');
      pages += 1;
      seen.push(...page.nodes.map((n) => n.id));
      expect(page.edges.map((e) => e.node.id)).toEqual(page.nodes.map((n) => n.id));
      expect(page.pageInfo.hasNextPage).toBe(seen.length < expected.length);
      expect(page.pageInfo.hasPreviousPage).toBe(false);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
    expect(stack.sandbox.calls('listEndpoints')).toBe(pages);
  });

  it('default first is 20; type and typeName come from the upstream type', async () => {
    const { body } = await stack.gql(PAGE);
    const page = dataOf<Page>(body, 'endpoints');
    expect(page.nodes).toHaveLength(20);
    const byId = new Map(all().map((e) => [e.id, e]));
    for (const node of page.nodes) {
      const upstream = byId.get(node.id);
      expect(node.typeName).toBe(upstream?.type);
      expect(node.type).toBe(upstream?.type === 'cloud' ? 'CLOUD' : 'AGENT');
      expect(node.url).toBe(upstream?.url);
    }
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('refuses last, before, first out of 1..100 and foreign cursors with BAD_USER_INPUT, no call', async () => {
    const tunnelCursor = Buffer.from(`tunnel:${tunnels[0]?.id}`).toString('base64url');
    for (const [args, message] of [
      ['last: 2', /forward only/],
      ['before: "x"', /forward only/],
      ['first: 0', /first must be from 1 to 100/],
      ['first: 101', /first must be from 1 to 100/],
      [`after: "${tunnelCursor}"`, /not a cursor/],
      ['after: "!!"', /not a cursor/],
    ] as const) {
      const { body } = await stack.gql(`{ endpoints(${args}) { nodes { id } } }`);
      expect(body.data).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(body.errors?.[0]?.message).toMatch(message);
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('filters upstream: types, urls and createdAfter are one call each', async () => {
    const cloud = all().filter((e) => e.type === 'cloud');
    const { body } = await stack.gql(PAGE, { first: 100, filter: { types: ['CLOUD'] } });
    expect(dataOf<Page>(body, 'endpoints').nodes.map((n) => n.id)).toEqual(cloud.map((e) => e.id));

    const urls = [cloud[1]?.url, all().at(-1)?.url];
    const byUrl = await stack.gql(PAGE, { filter: { urls } });
    expect(
      dataOf<Page>(byUrl.body, 'endpoints')
        .nodes.map((n) => n.url)
        .sort(),
    ).toEqual([...urls].sort());

    const since = all().find((e) => e.type === 'agent')?.created_at;
    const byDate = await stack.gql(PAGE, { first: 100, filter: { createdAfter: since, types: ['AGENT'] } });
    const expected = all().filter(
      (e) => e.type === 'agent' && Date.parse(e.created_at) >= Date.parse(since ?? ''),
    );
    expect(dataOf<Page>(byDate.body, 'endpoints').nodes.map((n) => n.id)).toEqual(expected.map((e) => e.id));
    expect(expected.length).toBeGreaterThan(0);
    expect(stack.sandbox.calls('listEndpoints')).toBe(3);
    expect(badStatuses()).toEqual([]);
  });

  it('client values are data: injection attempts match nothing and the upstream never answers 400', async () => {
    const attempts = [
      'https://cloud0.example.com" || true || "x',
      '" || obj.type == "cloud',
      '\\" || true || \\"',
      'https://x"]) || true || (["',
      'x\n|| true',
    ];
    for (const url of attempts) {
      const { body } = await stack.gql(PAGE, { filter: { urls: [url] } });
      expect(body.errors).toBeUndefined();
      expect(dataOf<Page>(body, 'endpoints').nodes).toEqual([]);
    }
    expect(stack.sandbox.calls('listEndpoints')).toBe(attempts.length);
    expect(stack.of('attempt').map((a) => a.status)).toEqual(attempts.map(() => 200));
    expect(badStatuses()).toEqual([]);
  });

  it('an empty list matches nothing with no call; more than 100 urls and a bad date are BAD_USER_INPUT', async () => {
    for (const filter of [{ urls: [] }, { types: [] }, { types: ['CLOUD'], urls: [] }]) {
      const { body } = await stack.gql(PAGE, { filter });
      expect(dataOf<Page>(body, 'endpoints')).toEqual({
        edges: [],
        nodes: [],
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      });
    }
    const many = Array.from({ length: 101 }, (_, i) => `https://u${i}.example.com`);
    const tooMany = await stack.gql(PAGE, { filter: { urls: many } });
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(tooMany.body.errors?.[0]?.message).toMatch(/at most 100/);
    const badDate = await stack.gql(PAGE, { filter: { createdAfter: 'yesterday' } });
    expect(badDate.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('endpoint(id) and node(id) share one batch; unknown is null; malformed is BAD_USER_INPUT with no call', async () => {
    const cloud = all().find((e) => e.type === 'cloud');
    const agent = all().find((e) => e.type === 'agent');
    const { body } = await stack.gql(
      `query($a: ID!, $b: ID!, $c: ID!) {
        a: endpoint(id: $a) { id url trafficPolicy bindings poolingEnabled createdAt updatedAt tunnel { id } }
        b: node(id: $b) { __typename ... on Endpoint { id upstreamUrl tunnel { id } region } }
        c: endpoint(id: $c) { id }
      }`,
      { a: cloud?.id, b: agent?.id, c: newId('ep') },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      a: {
        id: cloud?.id,
        url: cloud?.url,
        trafficPolicy: cloud?.traffic_policy,
        bindings: cloud?.bindings,
        poolingEnabled: cloud?.pooling_enabled,
        createdAt: cloud?.created_at,
        updatedAt: cloud?.updated_at,
        tunnel: null,
      },
      b: {
        __typename: 'Endpoint',
        id: agent?.id,
        upstreamUrl: agent?.upstream_url,
        tunnel: { id: agent?.tunnel?.id },
        region: agent?.region,
      },
      c: null,
    });
    expect(stack.sandbox.calls()).toBe(1);
    expect(stack.sandbox.calls('listEndpoints')).toBe(1);

    for (const bad of ['ep_', 'tn_abc', 'ep_../x', 'ep_a"b']) {
      const r = await stack.gql('query($id: ID!) { endpoint(id: $id) { id } }', { id: bad });
      expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('a listed endpoint is not fetched again by endpoint(id)', async () => {
    const id = all()[3]?.id;
    const { body } = await stack.gql(
      `query($id: ID!) { endpoints { nodes { id } } endpoint(id: $id) { id } }`,
      { id },
    );
    expect(dataOf<{ id: string }>(body, 'endpoint').id).toBe(id);
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('tenants are isolated: the other key sees only its own endpoints', async () => {
    const mine = new Set(all().map((e) => e.id));
    const { body } = await stack.gql(PAGE, { first: 100 }, { key: OTHER_KEY });
    const theirs = dataOf<Page>(body, 'endpoints').nodes.map((n) => n.id);
    expect(theirs).toEqual(stack.sandbox.listEndpoints(OTHER_KEY).map((e) => e.id));
    expect(theirs.some((id) => mine.has(id))).toBe(false);
    const cloud = all().find((e) => e.type === 'cloud');
    const cross = await stack.gql(
      'query($id: ID!) { endpoint(id: $id) { id } }',
      { id: cloud?.id },
      { key: OTHER_KEY },
    );
    expect(cross.body).toEqual({ data: { endpoint: null } });
  });
});
