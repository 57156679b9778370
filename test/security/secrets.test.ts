// Nothing leaks: no credential, token, upstream body text or stack in any answer or log line; one
// tenant never sees another's data; gateway tokens carry scopes.
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMaskError } from '../../src/gateway/execution';
import { type AccountSeed, makeTunnels, newId } from '../../src/sandbox';
import { KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const mine = makeTunnels(2, { seed: 21 });
const theirs = makeTunnels(2, { seed: 22 });
const edge = newId('edghts');
const route = newId('edghtsrt');
const backend = newId('bkdtg');
const seed = (tunnels = mine): AccountSeed => ({
  tunnels,
  edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backend, enabled: true } }] }],
  backends: [backend],
});
const LIST = '{ tunnels { nodes { id } } }';
const TUNNEL = 'query($id: ID!) { tunnel(id: $id) { id } }';
const DELETE = `mutation { deleteHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}" }) { __typename } }`;
const ids = (body: { data?: Record<string, unknown> | null }) =>
  (body.data?.tunnels as { nodes: { id: string }[] } | undefined)?.nodes.map((n) => n.id);

/** The upstream's own error text for a fault, read straight from the stand-in. */
async function upstreamMessage(h: Stack, path: string): Promise<string> {
  const response = await fetch(`${h.sandbox.url}${path}`, {
    headers: { authorization: `Bearer ${KEY}`, 'ngrok-version': '2' },
  });
  const { msg } = (await response.json()) as { msg: string };
  expect(msg.length).toBeGreaterThan(10);
  return msg;
}

describe('pass-through mode: keys and upstream text stay out of answers and logs', () => {
  let h: Stack;
  const unknownKey = 'unknown-key-0123456789abcdef';
  beforeAll(async () => {
    h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed(), [OTHER_KEY]: seed(theirs) },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.clearFaults();
    h.sandbox.resetCalls();
  });

  it('no key and no upstream body text in any answer or log line, whatever happens', async () => {
    const seen: string[] = [];
    const note = async (p: Promise<{ body: unknown }>) => seen.push(JSON.stringify((await p).body));
    h.sandbox.inject('getTunnel', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_215' });
    const invalidText = await upstreamMessage(h, `/tunnels/${mine[0]?.id}`);
    h.sandbox.inject('getTunnel', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_215' });
    await note(h.gql(TUNNEL, { id: mine[0]?.id }));
    h.sandbox.inject('getTunnel', { kind: 'status', status: 503, errorCode: 'ERR_NGROK_500' });
    const outageText = await upstreamMessage(h, `/tunnels/${mine[0]?.id}`);
    h.sandbox.inject(
      'getTunnel',
      ...Array(3).fill({ kind: 'status', status: 503, errorCode: 'ERR_NGROK_500' }),
    );
    await note(h.gql(TUNNEL, { id: mine[0]?.id }));
    await note(h.gql(LIST));
    await note(h.gql(LIST, {}, { key: unknownKey }));
    await note(h.gql(LIST, {}, { key: null, headers: { authorization: `Basic ${KEY}` } }));
    await note(h.gql(DELETE));
    h.sandbox.inject('listTunnels', { kind: 'html' }, { kind: 'malformedJson' });
    await note(h.gql(LIST));

    const everything = [...seen, ...h.logs].join('\n');
    expect(h.logs.length).toBeGreaterThan(0);
    for (const secret of [KEY, unknownKey, invalidText, outageText, 'Bad Gateway', '<html']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/"stack"|\n\s+at /);
    // Upstream failures still say what happened, in the gateway's words.
    expect(seen[0]).toContain('"code":"BAD_USER_INPUT"');
    expect(seen[0]).toContain('"errorCode":"ERR_NGROK_215"');
  });

  it('one tenant never sees another: identical calls are joined per credential only', async () => {
    h.sandbox.setLatency('listTunnels', 80);
    const [a1, b1, a2, b2] = await Promise.all([
      h.gql(LIST, {}, { key: KEY }),
      h.gql(LIST, {}, { key: OTHER_KEY }),
      h.gql(LIST, {}, { key: KEY }),
      h.gql(LIST, {}, { key: OTHER_KEY }),
    ]);
    for (const answer of [a1, a2]) expect(ids(answer.body)).toEqual(mine.map((t) => t.id));
    for (const answer of [b1, b2]) expect(ids(answer.body)).toEqual(theirs.map((t) => t.id));
    expect(h.sandbox.calls('listTunnels', KEY)).toBe(1);
    expect(h.sandbox.calls('listTunnels', OTHER_KEY)).toBe(1);
  });
});

describe('server-held key mode: gateway tokens with scopes', () => {
  let h: Stack;
  const READ = 'read-token-0123456789abcdef';
  const WRITE = 'write-token-0123456789abcdef';
  beforeAll(async () => {
    h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed() },
      env: { NGROK_API_KEY: KEY, GATEWAY_TOKENS: `${WRITE}:read+write,${READ}:read` },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.seed(KEY, seed());
    h.sandbox.resetCalls();
  });

  it('a read token cannot write, not even inside a batch: FORBIDDEN, no upstream call', async () => {
    const { status, text } = await h.raw({
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${READ}` },
      body: JSON.stringify([{ query: '{ __typename }' }, { query: DELETE }]),
    });
    const [read, write] = JSON.parse(text) as {
      data?: unknown;
      errors?: { extensions: { code: string } }[];
    }[];
    // A batch answers 200 as a whole; each operation carries its own outcome.
    expect(status).toBe(200);
    expect(read).toEqual({
      data: { __typename: 'Query' },
      extensions: { upstreamCalls: { predicted: 0, made: 0 } },
    });
    expect(write?.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(h.sandbox.calls()).toBe(0);
    expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backend);
  });

  it('the write token writes', async () => {
    const { body } = await h.gql(DELETE, {}, { key: WRITE });
    expect(body).toEqual({
      data: { deleteHttpsEdgeRouteBackend: { __typename: 'DeleteHttpsEdgeRouteBackendPayload' } },
    });
    expect(h.sandbox.calls('deleteBackend', KEY)).toBe(1);
  });

  it('neither tokens nor the server key appear in any answer or log line', async () => {
    const answers = [
      await h.gql(LIST, {}, { key: READ }),
      await h.gql(LIST, {}, { key: 'wrong-token-0123456789abcdef' }),
      await h.gql(LIST, {}, { key: KEY }),
      await h.gql(DELETE, {}, { key: READ }),
      await h.gql(DELETE, {}, { key: WRITE }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 403, 200]);
    const everything = [...answers.map((a) => JSON.stringify(a.body)), ...h.logs].join('\n');
    for (const secret of [READ, WRITE, KEY, 'wrong-token-0123456789abcdef']) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe('production masking', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed() },
      env: { NODE_ENV: 'production' },
    });
  });
  afterAll(() => h.close());

  it('no field suggestions in production (they map the schema for an attacker)', async () => {
    const { status, body } = await h.gql(TUNNEL.replace('{ id }', '{ idd }'), { id: mine[0]?.id });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toBe('Cannot query field "idd" on type "Tunnel".');
  });

  it('suggestions stay on outside production', async () => {
    const dev = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed() } });
    try {
      const { body } = await dev.gql(TUNNEL.replace('{ id }', '{ idd }'), { id: mine[0]?.id });
      expect(body.errors?.[0]?.message).toBe('Cannot query field "idd" on type "Tunnel". Did you mean "id"?');
    } finally {
      await dev.close();
    }
  });
});

describe('maskError', () => {
  const logged: object[] = [];
  const mask = createMaskError({ error: (details) => logged.push(details) });

  it('an unexpected error says nothing of itself: no message, no stack, no cause', () => {
    const secret = new Error(`connect to https://user:${KEY}@api.example failed`);
    const masked = mask(new GraphQLError(secret.message, { originalError: secret, path: ['tunnels'] }));
    expect(masked).toBeInstanceOf(GraphQLError);
    expect((masked as GraphQLError).toJSON()).toEqual({
      message: 'Unexpected error.',
      path: ['tunnels'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(JSON.stringify(logged)).not.toContain(KEY);
    expect(logged).toEqual([{ err: { name: 'Error', path: ['tunnels'] } }]);
  });
});
