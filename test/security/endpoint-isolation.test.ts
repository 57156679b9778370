// Two API keys, two accounts: neither sees the other's endpoints through endpoints, endpoint(id),
// node(id), nodes or Ref.node, with the read cache on; a write with one key on the other's endpoint
// is a NotFoundError and changes nothing; identical reads in flight are joined per credential only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const mine = makeTunnels(3, { seed: 84, kind: 'agent' });
const theirs = makeTunnels(3, { seed: 85, kind: 'agent' });
const agentOf = (id: string | undefined) => `ep_${id?.slice(3)}`;
const LIST = '{ endpoints(first: 100) { nodes { id url } } }';
const BY_ID = 'query($id: ID!) { endpoint(id: $id) { id url description } }';
const NODE = 'query($id: ID!) { node(id: $id) { id } }';
const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
const JOIN = '{ tunnels(first: 10) { nodes { id endpoint { id node { id ... on Endpoint { url } } } } } }';
const UPDATE = `mutation($id: ID!) { updateEndpoint(input: { id: $id, description: "taken over" }) {
  __typename ... on NotFoundError { id } } }`;
const DELETE =
  'mutation($id: ID!) { deleteEndpoint(input: { id: $id }) { __typename ... on NotFoundError { id } } }';

describe('endpoints of two accounts (CACHE_TTL_MS on)', () => {
  let stack: Stack;
  /** Each account's cloud endpoint, and every endpoint id of each account. */
  let cloud: Record<string, string> = {};
  const idsOf = (key: string) => stack.sandbox.listEndpoints(key).map((e) => e.id);

  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels: mine }, [OTHER_KEY]: { tunnels: theirs } },
      env: { CACHE_TTL_MS: '60000' },
    });
    cloud = {
      [KEY]: stack.sandbox.addEndpoint(KEY, { url: 'https://mine.example.com', description: 'mine' }).id,
      [OTHER_KEY]: stack.sandbox.addEndpoint(OTHER_KEY, {
        url: 'https://theirs.example.com',
        description: 'theirs',
      }).id,
    };
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.resetCalls();
  });

  it('the list shows each key its own endpoints only', async () => {
    for (const key of [KEY, OTHER_KEY]) {
      const { body } = await stack.gql(LIST, {}, { key });
      expect(dataOf<{ nodes: { id: string }[] }>(body, 'endpoints').nodes.map((n) => n.id)).toEqual(
        idsOf(key),
      );
    }
    expect(idsOf(KEY)).toHaveLength(4);
    expect(idsOf(KEY).filter((id) => idsOf(OTHER_KEY).includes(id))).toEqual([]);
  });

  it("endpoint(id), node(id) and nodes: the other's ids are null for each key, their own resolve", async () => {
    for (const [key, other] of [
      [KEY, OTHER_KEY],
      [OTHER_KEY, KEY],
    ] as const) {
      const foreign = [cloud[other] ?? '', agentOf((other === KEY ? mine : theirs)[0]?.id)];
      for (const id of foreign) {
        expect((await stack.gql(BY_ID, { id }, { key })).body).toEqual({ data: { endpoint: null } });
        expect((await stack.gql(NODE, { id }, { key })).body).toEqual({ data: { node: null } });
      }
      const own = cloud[key] ?? '';
      const { body } = await stack.gql(NODES, { ids: [...foreign, own] }, { key });
      expect(body).toEqual({ data: { nodes: [null, null, { id: own }] } });
      expect((await stack.gql(BY_ID, { id: own }, { key })).body.data).toEqual({
        endpoint: {
          id: own,
          url: key === KEY ? 'https://mine.example.com' : 'https://theirs.example.com',
          description: key === KEY ? 'mine' : 'theirs',
        },
      });
    }
  });

  it("Ref.node joins each key's tunnels to that key's endpoints", async () => {
    for (const [key, tunnels] of [
      [KEY, mine],
      [OTHER_KEY, theirs],
    ] as const) {
      const { body } = await stack.gql(JOIN, {}, { key });
      const nodes = dataOf<{
        nodes: { id: string; endpoint: { id: string; node: { id: string; url: string } } }[];
      }>(body, 'tunnels').nodes;
      expect(nodes.map((n) => n.id)).toEqual(tunnels.map((t) => t.id));
      for (const n of nodes) {
        expect(n.endpoint.node).toEqual({
          id: n.endpoint.id,
          url: tunnels.find((t) => t.id === n.id)?.public_url,
        });
      }
    }
  });

  it("the cache never answers one key with the other's read: the same query costs each key its own call", async () => {
    // A new endpoint of OTHER_KEY, read twice by it (the second from the cache), then by KEY.
    const { id } = stack.sandbox.addEndpoint(OTHER_KEY, {
      url: 'https://cached.example.com',
      description: 'c',
    });
    const seen = { endpoint: { id, url: 'https://cached.example.com', description: 'c' } };
    expect((await stack.gql(BY_ID, { id }, { key: OTHER_KEY })).body.data).toEqual(seen);
    expect((await stack.gql(BY_ID, { id }, { key: OTHER_KEY })).body.data).toEqual(seen);
    expect(stack.sandbox.calls('listEndpoints', OTHER_KEY)).toBe(1);
    expect((await stack.gql(BY_ID, { id }, { key: KEY })).body).toEqual({ data: { endpoint: null } });
    expect(stack.sandbox.calls('listEndpoints', KEY)).toBe(1);
  });

  it('identical reads in flight are joined per credential only', async () => {
    stack.sandbox.setLatency('listEndpoints', 80);
    const sent = [KEY, OTHER_KEY, KEY, OTHER_KEY].map((key) =>
      stack.gql('{ endpoints(first: 50) { nodes { id } } }', {}, { key }),
    );
    const answers = await Promise.all(sent);
    answers.forEach((answer, i) => {
      const key = i % 2 === 0 ? KEY : OTHER_KEY;
      expect(dataOf<{ nodes: { id: string }[] }>(answer.body, 'endpoints').nodes.map((n) => n.id)).toEqual(
        idsOf(key),
      );
    });
    expect(stack.sandbox.calls('listEndpoints', KEY)).toBe(1);
    expect(stack.sandbox.calls('listEndpoints', OTHER_KEY)).toBe(1);
  });

  it("a write with one key on the other's endpoint is NotFoundError and changes nothing", async () => {
    const id = cloud[OTHER_KEY] ?? '';
    const before = stack.sandbox.listEndpoints(OTHER_KEY).find((e) => e.id === id);
    expect(dataOf((await stack.gql(UPDATE, { id }, { key: KEY })).body, 'updateEndpoint')).toEqual({
      __typename: 'NotFoundError',
      id,
    });
    expect(dataOf((await stack.gql(DELETE, { id }, { key: KEY })).body, 'deleteEndpoint')).toEqual({
      __typename: 'NotFoundError',
      id,
    });
    expect(stack.sandbox.calls('updateEndpoint', KEY)).toBe(1);
    expect(stack.sandbox.calls('deleteEndpoint', KEY)).toBe(1);
    expect(stack.sandbox.listEndpoints(OTHER_KEY).find((e) => e.id === id)).toEqual(before);
    expect(before?.description).toBe('theirs');
    // The owner still reads it as it was (its cached read was not the other key's to clear).
    expect((await stack.gql(BY_ID, { id }, { key: OTHER_KEY })).body.data).toEqual({
      endpoint: { id, url: 'https://theirs.example.com', description: 'theirs' },
    });
  });
});
