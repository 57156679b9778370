// The cost limit counts upstream lookups: each Ref.node join, endpoint(id) and endpoints adds 5 per
// object it may look up (times the lists around it) to graphql-armor's static cost, so a join is
// refused before any upstream call when it pushes the operation over MAX_COST.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(25, { seed: 18, kind: 'agent' });
const join = (first: number) =>
  `{ tunnels(first: ${first}) { nodes { id endpoint { node { ... on Endpoint { url trafficPolicy } } } } } }`;

/** The error of a refused operation: HTTP 400, GRAPHQL_VALIDATION_FAILED, its message. */
async function refusal(stack: Stack, query: string, variables?: Record<string, unknown>): Promise<string> {
  const { status, body } = await stack.gql(query, variables);
  expect(status).toBe(400);
  expect(body.data).toBeUndefined();
  expect(body.errors).toHaveLength(1);
  expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  return body.errors?.[0]?.message ?? '';
}

describe('the cost of joins (MAX_COST=950)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } }, env: { MAX_COST: '950' } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('refuses a 20-tunnel join its 20 lookups push over the limit, with no upstream call', async () => {
    // armor alone: 876.25, under the limit; the 20 lookups add 100.
    expect(await refusal(stack, join(20))).toBe('Query Cost limit of 950 exceeded, found 976.25.');
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('serves the 19-tunnel join just under it (927.4375) with 2 upstream calls', async () => {
    const { status, body } = await stack.gql(join(19));
    expect(status).toBe(200);
    const nodes = dataOf<{ nodes: { endpoint: { node: { url: string } | null } }[] }>(body, 'tunnels').nodes;
    expect(nodes).toHaveLength(19);
    expect(nodes.every((n) => typeof n.endpoint.node?.url === 'string')).toBe(true);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
    expect(stack.sandbox.calls('listEndpoints')).toBe(1);
    expect(stack.sandbox.calls()).toBe(2);
  });

  it('the same 20 tunnels without the join cost what armor says (302.5) and pass', async () => {
    const { body } = await stack.gql('{ tunnels(first: 20) { nodes { id endpoint { id } } } }');
    expect(dataOf<{ nodes: unknown[] }>(body, 'tunnels').nodes).toHaveLength(20);
    expect(stack.sandbox.calls()).toBe(1);
  });
});

describe('what each lookup field costs (MAX_COST=1: every message shows the cost)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } }, env: { MAX_COST: '1' } });
  });
  afterAll(() => stack.close());

  it.each([
    // armor 3.5 + one lookup.
    ['{ endpoint(id: "ep_2J0000000000000000000000001") { url } }', 8.5],
    // armor 213.125 + endpoints and 10 Ref.node lookups.
    ['{ endpoints(first: 10) { nodes { tunnel { node { id } } } } }', 268.125],
    // No first: the default page of 20 (armor counts 1): 21.3125 + 21 lookups.
    ['{ endpoints { nodes { tunnel { node { id } } } } }', 126.3125],
    // A variable first may be 100: 21.3125 + 101 lookups.
    ['query($n: Int) { endpoints(first: $n) { nodes { tunnel { node { id } } } } }', 526.3125],
    // nodes(ids:) of 3: each may be an endpoint whose tunnel is joined (armor 21.3125 + 3 lookups).
    ['{ nodes(ids: ["a", "b", "c"]) { ... on Endpoint { tunnel { node { id } } } } }', 36.3125],
    // A fragment spread twice counts twice (armor 64.9375 + 2 endpoints and 2 joins).
    [
      '{ a: endpoint(id: "ep_1") { ...T } b: endpoint(id: "ep_2") { ...T } } fragment T on Endpoint { tunnel { node { id } } }',
      84.9375,
    ],
    // No lookup: armor's cost alone, as before.
    ['{ tunnels(first: 20) { nodes { id endpoint { id } } } }', 302.5],
  ])('%s costs %d', async (query, cost) => {
    stack.sandbox.resetCalls();
    expect(await refusal(stack, query)).toBe(`Query Cost limit of 1 exceeded, found ${cost}.`);
    expect(stack.sandbox.calls()).toBe(0);
  });
});
