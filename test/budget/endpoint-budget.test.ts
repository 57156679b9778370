// Endpoint operations spend the gateway's upstream budget like the others: reads (lists, endpoint(id),
// joins) claim 'read' and leave the last tenth to writes, which claim 'mutation'. The answer's
// extensions.upstreamBudget counts down by the operation's exact upstream calls, its shares by kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { budgetAfter } from '../support/budget';
import { sample, scrape } from '../support/prometheus';
import { dataOf, type GqlResult, KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(3, { seed: 82, kind: 'agent' });
const agentEndpoint = `ep_${tunnels[0]?.id.slice(3)}`;
const LIST = '{ endpoints(first: 2) { nodes { id } } }';
const BY_ID = `{ endpoint(id: "${agentEndpoint}") { id } }`;
const JOIN = '{ tunnels(first: 3) { nodes { endpoint { node { ... on Endpoint { url } } } } } }';
const CREATE = `mutation($url: String!) { createCloudEndpoint(input: { url: $url, trafficPolicy: "on_http_request: []" }) {
  __typename ... on CreateCloudEndpointPayload { endpoint { id } } } }`;
const UPDATE = 'mutation($id: ID!) { updateEndpoint(input: { id: $id, description: "d" }) { __typename } }';
const DELETE = 'mutation($id: ID!) { deleteEndpoint(input: { id: $id }) { __typename } }';

describe('endpoint operations and the upstream budget (UPSTREAM_RATE_LIMIT_PER_MIN=10)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '10' },
    });
  });
  afterAll(() => stack.close());

  const remaining = (result: GqlResult) => result.body.extensions?.upstreamBudget;
  const budget = (reads: number, writes = 0) => budgetAfter(10, { reads, writes });

  it('reads count down the read share, writes the whole limit, each by its exact calls', async () => {
    // Reads: 9 of 10 (the last call of the window is a write's).
    expect(remaining(await stack.gql(LIST))).toEqual(budget(1));
    expect(remaining(await stack.gql(BY_ID))).toEqual(budget(2));
    // The join: the tunnel page and one endpoint batch, two calls.
    const join = await stack.gql(JOIN);
    expect(join.body.errors).toBeUndefined();
    expect(remaining(join)).toEqual(budget(4));
    // Writes: 5 calls used so far, they may use all 10.
    const created = await stack.gql(CREATE, { url: 'https://budget-1.example.com' });
    const id = dataOf<{ endpoint: { id: string } }>(created.body, 'createCloudEndpoint').endpoint.id;
    expect(remaining(created)).toEqual(budget(4, 1));
    expect(remaining(await stack.gql(UPDATE, { id }))).toEqual(budget(4, 2));
    expect(remaining(await stack.gql(DELETE, { id }))).toEqual(budget(4, 3));
    // 7 used: two more reads fill the read share.
    expect(remaining(await stack.gql(LIST))).toEqual(budget(5, 3));
    expect(remaining(await stack.gql(BY_ID))).toEqual(budget(6, 3));
    expect(stack.sandbox.calls()).toBe(9);
  });

  it('then refuses reads up front with RATE_LIMITED, no call; the last call is a write, then writes are refused', async () => {
    // Refused before they run: the budget has no room for their predicted calls.
    const read = await stack.gql(LIST);
    expect(read.body.data).toBeUndefined();
    expect(read.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(read.upstreamCalls).toEqual({ predicted: 1, made: 0 });
    const join = await stack.gql(JOIN);
    expect(join.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(join.upstreamCalls).toEqual({ predicted: 2, made: 0 });
    expect(stack.sandbox.calls()).toBe(9);

    const last = await stack.gql(CREATE, { url: 'https://budget-2.example.com' });
    expect(dataOf<{ __typename: string }>(last.body, 'createCloudEndpoint').__typename).toBe(
      'CreateCloudEndpointPayload',
    );
    expect(remaining(last)).toEqual(budget(6, 4));
    const refused = await stack.gql(CREATE, { url: 'https://budget-3.example.com' });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(refused.upstreamCalls).toEqual({ predicted: 1, made: 0 });
    expect(stack.sandbox.calls('createEndpoint')).toBe(2);
    expect(stack.sandbox.listEndpoints(KEY).map((e) => e.url)).not.toContain('https://budget-3.example.com');
    expect(stack.sandbox.calls()).toBe(10);
  });

  it('/metrics shows each claim by route and kind', async () => {
    const text = await scrape(stack.url);
    const claims = (metric: string, route: string, kind: string) =>
      sample(text, `gateway_upstream_budget_${metric}_total`, { route, kind });
    expect(claims('calls', 'listEndpoints', 'read')).toBe(5);
    expect(claims('calls', 'listTunnels', 'read')).toBe(1);
    expect(claims('calls', 'createEndpoint', 'mutation')).toBe(2);
    expect(claims('calls', 'updateEndpoint', 'mutation')).toBe(1);
    expect(claims('calls', 'deleteEndpoint', 'mutation')).toBe(1);
    // The refusals came before any call: no route claimed and was refused.
    expect(claims('refusals', 'listEndpoints', 'read')).toBeUndefined();
    expect(claims('refusals', 'listTunnels', 'read')).toBeUndefined();
    expect(claims('refusals', 'createEndpoint', 'mutation')).toBeUndefined();
    // Writes never claim as reads.
    for (const route of ['createEndpoint', 'updateEndpoint', 'deleteEndpoint'])
      expect(claims('calls', route, 'read')).toBeUndefined();
  });
});
