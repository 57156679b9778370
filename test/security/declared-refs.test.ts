// Ref.node joins only the kinds its field declares (what the planner predicts): a reference whose
// id names another kind, whatever the upstream sent, is null with no upstream call, so that
// made <= predicted never rests on the upstream's data.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CloudEndpoint, makeTunnels, newId } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(40, { seed: 36 });
const at = '2026-11-01T10:00:00Z';
/** Cloud endpoints created by "principals" whose ids are tunnels' (tn_…): joinable, were it not for the field. */
const endpoints: CloudEndpoint[] = tunnels.map((tunnel, i) => ({
  id: newId('ep', new Date(Date.parse(at) + i * 1000)),
  url: `https://p${i}.example.com`,
  created_at: at,
  updated_at: at,
  traffic_policy: '',
  bindings: ['public'],
  principal: { id: tunnel.id, uri: '' },
}));

describe('Ref.node resolves only what its field declares', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels, endpoints } } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('a principal carrying tunnel ids: each node null, one call (the page), as predicted', async () => {
    const { body, upstreamCalls } = await stack.gql(
      '{ endpoints(first: 40, filter: { types: [CLOUD] }) { nodes { principal { id node { __typename id } } } } }',
    );
    expect(upstreamCalls).toEqual({ predicted: 1, made: 1 });
    const nodes = dataOf<{ nodes: { principal: { id: string; node: unknown } }[] }>(body, 'endpoints').nodes;
    expect(nodes).toHaveLength(40);
    expect(new Set(nodes.map((n) => n.principal.id))).toEqual(new Set(tunnels.map((t) => t.id)));
    for (const n of nodes) expect(n.principal.node).toBeNull();
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('the same ids by id, where Tunnel is what is asked for, are joined', async () => {
    const ids = tunnels.slice(0, 2).map((t) => t.id);
    const { body, upstreamCalls } = await stack.gql(
      `{ nodes(ids: ${JSON.stringify(ids)}) { __typename id } }`,
    );
    expect(upstreamCalls?.made).toBe(upstreamCalls?.predicted);
    expect(dataOf(body, 'nodes')).toEqual(ids.map((id) => ({ __typename: 'Tunnel', id })));
  });
});
