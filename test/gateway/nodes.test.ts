import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack, TUNNEL_FIELDS } from '../support/stack';

const tunnels = makeTunnels(30, { seed: 3 });
const id = (i: number) => tunnels[i]?.id ?? '';
const missingTunnel = newId('tn');

describe('tunnel(id), node(id), nodes(ids)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('tunnel(id) returns the tunnel with every field', async () => {
    const { body } = await stack.gql(`query($id: ID!) { tunnel(id: $id) { ${TUNNEL_FIELDS} } }`, {
      id: id(4),
    });
    expect(body.errors).toBeUndefined();
    expect(dataOf<{ id: string }>(body, 'tunnel').id).toBe(id(4));
    expect(stack.sandbox.calls('getTunnel')).toBe(1);
  });

  it('a well-formed id that does not exist is null', async () => {
    const { body } = await stack.gql('query($id: ID!) { tunnel(id: $id) { id } node(id: $id) { id } }', {
      id: missingTunnel,
    });
    expect(body).toEqual({ data: { tunnel: null, node: null } });
    expect(stack.sandbox.calls('getTunnel')).toBe(1);
  });

  it('node(id) resolves a tunnel by its upstream id, with the type from the prefix', async () => {
    const { body } = await stack.gql(
      'query($id: ID!) { node(id: $id) { __typename id ... on Tunnel { region } } }',
      {
        id: id(2),
      },
    );
    expect(body.data?.node).toEqual({ __typename: 'Tunnel', id: id(2), region: tunnels[2]?.region });
  });

  it('node and nodes with a well-formed id of a type the schema does not hold are null, with no call', async () => {
    // A route (known by prefix, not a node), kinds the gateway does not know, a prefix of none.
    const ids = [newId('edghtsrt'), newId('usr'), newId('ak'), 'zz_abc123'];
    const { body } = await stack.gql(
      'query($id: ID!, $ids: [ID!]!) { node(id: $id) { id } nodes(ids: $ids) { id } }',
      {
        id: ids[0],
        ids,
      },
    );
    expect(body).toEqual({ data: { node: null, nodes: [null, null, null, null] } });
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('nodes(ids) keeps order, null for the missing, duplicates fetched once', async () => {
    const ids = [id(1), missingTunnel, id(3), id(1), newId('cr')];
    const { body } = await stack.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(body.data?.nodes).toEqual([{ id: id(1) }, null, { id: id(3) }, { id: id(1) }, null]);
    expect(stack.sandbox.calls('getTunnel')).toBe(3);
  });

  const malformed = [
    'not-an-id',
    'tn_',
    'tn_../../edges',
    'tn_abc%2Fdef',
    'tn_abc?limit=1',
    'tn_abc#x',
    'tn_äöü',
    `tn_${'a'.repeat(10_000)}`,
    '',
  ];
  for (const bad of malformed) {
    it(`tunnel, node and nodes refuse the malformed id ${JSON.stringify(bad.slice(0, 20))} with BAD_USER_INPUT and no call`, async () => {
      for (const [query, data] of [
        ['query($id: ID!) { tunnel(id: $id) { id } }', { tunnel: null }],
        ['query($id: ID!) { node(id: $id) { id } }', { node: null }],
        ['query($id: ID!) { nodes(ids: [$id]) { id } }', null],
      ] as const) {
        const { body } = await stack.gql(query, { id: bad });
        expect(body.data).toEqual(data);
        expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
        expect(body.errors?.[0]?.message.length).toBeLessThan(200);
      }
      expect(stack.sandbox.calls()).toBe(0);
    });
  }

  it('tunnel(id) with an id of another kind is BAD_USER_INPUT with no call', async () => {
    const { body } = await stack.gql('query($id: ID!) { tunnel(id: $id) { id } }', { id: newId('ep') });
    expect(body.data).toEqual({ tunnel: null });
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toMatch(/is not a tunnel id/);
    expect(stack.sandbox.calls()).toBe(0);
  });
});

describe('loaders: the fewest upstream calls', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('a list plus tunnel(id) of a listed id is one call', async () => {
    const { body } = await stack.gql(
      `query($id: ID!) { tunnels(first: 20) { nodes { id } } tunnel(id: $id) { id region } }`,
      { id: id(5) },
    );
    expect(dataOf<{ id: string }>(body, 'tunnel').id).toBe(id(5));
    expect(stack.sandbox.calls()).toBe(1);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
  });

  it('node(id) and nodes(ids) of listed ids add no call either', async () => {
    const { body } = await stack.gql(
      `query($ids: [ID!]!) { tunnels(first: 10) { nodes { id } } nodes(ids: $ids) { id } node(id: "${id(0)}") { id } }`,
      { ids: [id(1), id(9)] },
    );
    expect(body.data?.nodes).toEqual([{ id: id(1) }, { id: id(9) }]);
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('the same id under ten aliases is one call', async () => {
    const aliases = Array.from({ length: 10 }, (_, i) => `a${i}: tunnel(id: "${id(7)}") { id proto }`).join(
      '\n',
    );
    const { body } = await stack.gql(`{ ${aliases} }`);
    expect(Object.values(body.data ?? {})).toHaveLength(10);
    for (const value of Object.values(body.data ?? {})) expect((value as { id: string }).id).toBe(id(7));
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('ten distinct ids are ten calls, made concurrently', async () => {
    const aliases = Array.from({ length: 10 }, (_, i) => `a${i}: tunnel(id: "${id(i + 10)}") { id }`).join(
      '\n',
    );
    stack.sandbox.setLatency('getTunnel', 30);
    try {
      const { body } = await stack.gql(`{ ${aliases} }`);
      expect(Object.keys(body.data ?? {})).toHaveLength(10);
      expect(stack.sandbox.calls('getTunnel')).toBe(10);
      expect(stack.sandbox.peakConcurrency()).toBeGreaterThan(1);
    } finally {
      stack.sandbox.setLatency('getTunnel', 0);
    }
  });

  it('loaders are per request: a second request fetches again', async () => {
    await stack.gql(`{ tunnel(id: "${id(8)}") { id } }`);
    await stack.gql(`{ tunnel(id: "${id(8)}") { id } }`);
    expect(stack.sandbox.calls('getTunnel')).toBe(2);
  });
});
