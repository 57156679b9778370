// Admission on upstream calls (src/gateway/limits/): a dashboard's pages run, with the calls they
// were predicted to make; an operation predicted above MAX_UPSTREAM_CALLS_PER_OPERATION, or above
// what the credential's budget has left, is refused before any upstream call; a list argument out
// of range is BAD_USER_INPUT naming it. Over HTTP and over graphql-ws alike, with the log line.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';
import { run, wsClient } from '../support/websocket';

const tunnels = makeTunnels(130, { seed: 11 });

const ALL_ENDPOINT_FIELDS =
  'id url type bindings proto hostport region createdAt updatedAt description metadata trafficPolicy poolingEnabled upstreamUrl domain { id uri } tcpAddr { id uri } tunnel { id uri } tunnelSession { id uri } principal { id uri }';
/** A dashboard's table of endpoints: one page of 100, every column, no join. One upstream call. */
const ENDPOINT_TABLE = `{ endpoints(first: 100) { nodes { ${ALL_ENDPOINT_FIELDS} } } }`;
/** Two pages of 100 tunnels, each joined to its endpoint: four upstream calls. */
const TWO_TUNNEL_PAGES = `query($c: String) {
  a: tunnels(first: 100) { pageInfo { endCursor } nodes { id endpoint { node { ... on Endpoint { id url } } } } }
  b: tunnels(first: 100, after: $c) { nodes { id endpoint { node { ... on Endpoint { id url } } } } }
}`;
const aliases = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `e${i}: endpoints(first: 100) { nodes { id tunnel { node { ... on Tunnel { id } } } } }`,
  ).join(' ');
/** Refused alone; the skipped field with a negative list size must not lower the count. */
const BYPASS = `{ ${aliases(14)} z: tunnels(first: -100000000) @skip(if: true) { nodes { endpoint { node { id } } } } }`;

describe('admission on upstream calls (defaults: 25 calls, 2,000 objects)', () => {
  let stack: Stack;
  let cursor: string;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } }, websocket: true });
    for (let i = 0; i < 60; i += 1) stack.sandbox.addEndpoint(KEY, { url: `https://c${i}.example.com` });
    const first = await stack.gql('{ tunnels(first: 100) { pageInfo { endCursor } } }');
    cursor = dataOf<{ pageInfo: { endCursor: string } }>(first.body, 'tunnels').pageInfo.endCursor;
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('admits a page of 100 endpoints with every field: predicted 1, made 1', async () => {
    const { status, body, upstreamCalls } = await stack.gql(ENDPOINT_TABLE);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(dataOf<{ nodes: unknown[] }>(body, 'endpoints').nodes).toHaveLength(100);
    expect(upstreamCalls).toEqual({ predicted: 1, made: 1 });
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('admits two pages of 100 tunnels joined to their endpoints: predicted 4, made 4', async () => {
    const { body, upstreamCalls } = await stack.gql(TWO_TUNNEL_PAGES, { c: cursor });
    expect(body.errors).toBeUndefined();
    const a = dataOf<{ nodes: { endpoint: { node: { id: string } | null } | null }[] }>(body, 'a').nodes;
    const b = dataOf<{ nodes: unknown[] }>(body, 'b').nodes;
    expect([a.length, b.length]).toEqual([100, 30]);
    expect(a.filter((t) => t.endpoint?.node).length).toBeGreaterThan(50);
    expect(upstreamCalls).toEqual({ predicted: 4, made: 4 });
    expect([stack.sandbox.calls('listTunnels'), stack.sandbox.calls('listEndpoints')]).toEqual([2, 2]);
  });

  it('refuses the bypass (aliases, a skipped field with a negative first) before any call', async () => {
    for (const query of [`{ ${aliases(14)} }`, BYPASS]) {
      const { status, body, upstreamCalls } = await stack.gql(query);
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['OPERATION_TOO_EXPENSIVE']);
      // 14 pages, and for each a tunnels list and a GET for each of its 100 references.
      expect(upstreamCalls).toEqual({ predicted: 14 * 102, made: 0 });
      expect(body.errors?.[0]?.extensions?.upstreamCalls).toEqual({ predicted: 14 * 102, limit: 25 });
      // No page lowered alone makes it fit: the refusal names none.
      expect(body.errors?.[0]?.extensions?.fitsWith).toBeUndefined();
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('names a list argument out of range, BAD_USER_INPUT, before any call', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['{ a: endpoints(first: 1) { nodes { id } } z: tunnels(first: -100000000) { nodes { id } } }', {}, 'z'],
      ['query($n: Int) { tunnels(first: $n) { nodes { id } } }', { n: 101 }, 'tunnels'],
      ['query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array(101).fill('tn_1') }, 'nodes'],
    ];
    for (const [query, variables, field] of cases) {
      const { body, upstreamCalls } = await stack.gql(query, variables);
      expect(body.data).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(body.errors?.[0]?.path).toEqual([field]);
      expect(body.errors?.[0]?.message).toMatch(
        field === 'nodes' ? /^ids takes at most 100/ : /^first must be/,
      );
      expect(upstreamCalls).toEqual({ predicted: 0, made: 0 });
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('refuses nodes(ids: [100 distinct tunnel ids]) (one GET each) before any call', async () => {
    const ids = tunnels.slice(0, 100).map((t) => t.id);
    const { body, upstreamCalls } = await stack.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids,
    });
    expect(body.errors?.[0]?.extensions?.code).toBe('OPERATION_TOO_EXPENSIVE');
    expect(upstreamCalls).toEqual({ predicted: 100, made: 0 });
    // One GET per tunnel id: twenty-six would be too many, twenty-five is not.
    const many = (n: number) =>
      stack.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: ids.slice(0, n) });
    const over = await many(26);
    expect(over.body.errors?.[0]?.extensions?.code).toBe('OPERATION_TOO_EXPENSIVE');
    expect(over.upstreamCalls).toEqual({ predicted: 26, made: 0 });
    const fits = await many(25);
    expect(fits.body.errors).toBeUndefined();
    expect(fits.upstreamCalls).toEqual({ predicted: 25, made: 25 });
    expect(stack.sandbox.calls()).toBe(25);
  });

  it('over graphql-ws: the same admission, the same figures, and a log line per operation', async () => {
    const client = wsClient(stack.wsUrl, { key: KEY });
    try {
      const table = await run(client, ENDPOINT_TABLE);
      expect(table.results[0]?.errors).toBeUndefined();
      expect(table.upstreamCalls).toEqual([{ predicted: 1, made: 1 }]);
      const bypass = await run(client, BYPASS);
      expect(bypass.results[0]?.errors?.map((e) => e.extensions?.code)).toEqual(['OPERATION_TOO_EXPENSIVE']);
      expect(bypass.upstreamCalls).toEqual([{ predicted: 14 * 102, made: 0 }]);
      expect(stack.sandbox.calls()).toBe(1);
      const lines = stack.lines().filter((l) => l.transport === 'graphql-ws' && l.msg === 'request');
      const last = lines.slice(-2);
      expect(
        last.map((l) => [l.operationType, l.outcome, (l.upstream as { predicted: number }).predicted]),
      ).toEqual([
        ['query', 'ok', 1],
        ['query', 'error', 14 * 102],
      ]);
      expect(last.map((l) => (l.upstream as { made: number }).made)).toEqual([1, 0]);
      expect(last[1]?.errors).toEqual(['OPERATION_TOO_EXPENSIVE']);
    } finally {
      await client.dispose();
    }
  });

  it('a mutation over graphql-ws writes its log line too, with its write predicted', async () => {
    const client = wsClient(stack.wsUrl, { key: KEY });
    try {
      const created = await run(
        client,
        'mutation { createCloudEndpoint(input: { url: "https://ws-line.example.com", trafficPolicy: "on_http_request: [{actions: [{type: deny}]}]" }) { __typename } }',
      );
      expect(created.results[0]?.data).toEqual({
        createCloudEndpoint: { __typename: 'CreateCloudEndpointPayload' },
      });
      expect(created.upstreamCalls).toEqual([{ predicted: 1, made: 1 }]);
      const line = stack
        .lines()
        .filter((l) => l.transport === 'graphql-ws')
        .at(-1);
      expect([line?.operationType, line?.outcome]).toEqual(['mutation', 'ok']);
      expect(line?.upstream).toMatchObject({ calls: 1, predicted: 1, made: 1 });
    } finally {
      await client.dispose();
    }
  });
});

describe('admission against the budget (UPSTREAM_RATE_LIMIT_PER_MIN=10)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '10' },
    });
  });
  afterAll(() => stack.close());

  it('having spent 8, refuses a 4-call operation with RATE_LIMITED and no call, and admits a 1-call one', async () => {
    for (let i = 1; i <= 8; i += 1) {
      const { body } = await stack.gql(`{ tunnels(first: ${i}) { nodes { id } } }`);
      expect(body.errors).toBeUndefined();
    }
    expect(stack.sandbox.calls()).toBe(8);
    const four = await stack.gql(
      '{ a: tunnels(first: 9) { nodes { id } } b: tunnels(first: 10) { nodes { id } } c: endpoints(first: 1) { nodes { id } } d: endpoints(first: 2) { nodes { id } } }',
    );
    expect(four.status).toBe(429);
    expect(four.body.data).toBeUndefined();
    const error = four.body.errors?.[0];
    expect(error?.extensions?.code).toBe('RATE_LIMITED');
    expect(error?.extensions?.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error?.extensions?.retryAfter).toBeLessThanOrEqual(60);
    expect(four.upstreamCalls).toEqual({ predicted: 4, made: 0 });
    expect(stack.sandbox.calls()).toBe(8);
    const one = await stack.gql('{ tunnels(first: 11) { nodes { id } } }');
    expect(one.body.errors).toBeUndefined();
    expect(one.upstreamCalls).toEqual({ predicted: 1, made: 1 });
    expect(stack.sandbox.calls()).toBe(9);
  });
});

describe('the size of an answer (MAX_RESPONSE_OBJECTS)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { MAX_UPSTREAM_CALLS_PER_OPERATION: '1000' },
    });
  });
  afterAll(() => stack.close());

  // Every join but the backends' nodes (one GET each, 5 counted a tunnel: no page of 100 fits them).
  const everyJoin = (alias: string, after = '') =>
    `${alias}: tunnels(first: 100${after}) { nodes { id publicUrl startedAt metadata proto region forwardsTo labels { name value } backends { id uri } tunnelSession { id uri node { id } } endpoint { id uri node { ... on Endpoint { ${ALL_ENDPOINT_FIELDS} } } } } }`;

  it('admits pages of 100 with every field and every join up to the limit; refuses past it', async () => {
    // A tunnel, its label, its joined agent and its joined endpoint: 4 objects an item (references
    // count with their holder): five pages hold 2,000, six 2,400.
    const pages = (n: number) =>
      `{ ${'abcdef'
        .slice(0, n)
        .split('')
        .map((a) => everyJoin(a))
        .join(' ')} }`;
    const five = await stack.gql(pages(5));
    expect(five.body.errors).toBeUndefined();
    expect(five.upstreamCalls?.predicted).toBe(15);
    const six = await stack.gql(pages(6));
    expect(six.body.errors?.[0]?.extensions?.code).toBe('OPERATION_TOO_EXPENSIVE');
    expect(six.body.errors?.[0]?.message).toBe(
      "This operation's answer could hold 2400 objects; at most 2000 are allowed. Ask for fewer items or joins.",
    );
    expect(six.upstreamCalls).toEqual({ predicted: 18, made: 0 });
  });
});
