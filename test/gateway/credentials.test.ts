import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const mine = makeTunnels(3, { seed: 11 });
const theirs = makeTunnels(3, { seed: 12 });
const LIST = '{ tunnels { nodes { id } } }';

describe('pass-through: the client forwards its own ngrok API key', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: { tunnels: mine }, [OTHER_KEY]: { tunnels: theirs } },
    });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('each key sees its own account', async () => {
    const a = await stack.gql(LIST, {}, { key: KEY });
    const b = await stack.gql(LIST, {}, { key: OTHER_KEY });
    expect(dataOf<{ nodes: { id: string }[] }>(a.body, 'tunnels').nodes.map((n) => n.id)).toEqual(
      mine.map((t) => t.id),
    );
    expect(dataOf<{ nodes: { id: string }[] }>(b.body, 'tunnels').nodes.map((n) => n.id)).toEqual(
      theirs.map((t) => t.id),
    );
    expect(stack.sandbox.calls('listTunnels', KEY)).toBe(1);
    expect(stack.sandbox.calls('listTunnels', OTHER_KEY)).toBe(1);
  });

  it('no Authorization header: HTTP 401 UNAUTHENTICATED, no upstream call', async () => {
    const { status, body, headers } = await stack.gql(LIST, {}, { key: null });
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe('Bearer realm="ngrok-graphql-gateway"');
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('a malformed Authorization header: HTTP 401, no upstream call', async () => {
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer a b', 'token']) {
      const { status, body, headers } = await stack.gql(LIST, {}, { key: null, headers: { authorization } });
      expect(status).toBe(401);
      expect(headers.get('www-authenticate')).toBe('Bearer realm="ngrok-graphql-gateway"');
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('introspection needs no credential (tooling)', async () => {
    const { status, body } = await stack.gql('{ __schema { queryType { name } } }', {}, { key: null });
    expect(status).toBe(200);
    expect(body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  it('a key the upstream refuses: UNAUTHENTICATED with the upstream code, and no key in the answer', async () => {
    const unknown = 'unknown-key-ABCDEFGHIJ';
    const { body } = await stack.gql(LIST, {}, { key: unknown });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      upstream: { status: 403, errorCode: 'ERR_NGROK_203' },
    });
    expect(JSON.stringify(body)).not.toContain(unknown);
  });
});

describe('server-held key: clients present a gateway token', () => {
  let stack: Stack;
  const READ_TOKEN = 'read-token-abcdefghijklmnop';
  const WRITE_TOKEN = 'write-token-abcdefghijklmnop';
  beforeAll(async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: { tunnels: mine } },
      env: { NGROK_API_KEY: KEY, GATEWAY_TOKENS: `${WRITE_TOKEN},${READ_TOKEN}:read` },
    });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('a valid token reads with the server key', async () => {
    const { body } = await stack.gql(LIST, {}, { key: READ_TOKEN });
    expect(dataOf<{ nodes: unknown[] }>(body, 'tunnels').nodes).toHaveLength(3);
    expect(stack.sandbox.calls('listTunnels', KEY)).toBe(1);
  });

  it('no token or a wrong one: HTTP 401, no upstream call; the ngrok key itself is not a token', async () => {
    for (const key of [null, 'wrong-token-abcdefghijklmnop', KEY]) {
      const { status, body, headers } = await stack.gql(LIST, {}, { key });
      expect(status).toBe(401);
      expect(headers.get('www-authenticate')).toBe('Bearer realm="ngrok-graphql-gateway"');
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('a read-only token cannot run mutations: FORBIDDEN, no upstream call', async () => {
    const { status, body, headers } = await stack.gql(
      'mutation { deleteHttpsEdgeRouteBackend(input: { edgeId: "edghts_abc", routeId: "edghtsrt_def" }) { __typename } }',
      {},
      { key: READ_TOKEN },
    );
    expect(status).toBe(403);
    // A challenge belongs to 401 only: this token is valid, it may just not write.
    expect(headers.get('www-authenticate')).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('a write token runs mutations', async () => {
    const { body } = await stack.gql(
      'mutation { deleteHttpsEdgeRouteBackend(input: { edgeId: "edghts_abc", routeId: "edghtsrt_def" }) { __typename } }',
      {},
      { key: WRITE_TOKEN },
    );
    expect(body.data).toEqual({ deleteHttpsEdgeRouteBackend: { __typename: 'NotFoundError' } });
    expect(stack.sandbox.calls('deleteBackend', KEY)).toBe(1);
  });
});
