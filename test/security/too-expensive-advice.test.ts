// An operation refused as too expensive names the largest `first` of one of its pages at which it
// would fit, in its message and in `extensions.fitsWith: { path, first }`, the outermost page first,
// over HTTP and graphql-ws; none when no page lowered alone makes it fit. Default settings (25 calls).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';
import { run, wsClient } from '../support/websocket';

describe('a refusal names the largest first that fits (default: 25 calls)', () => {
  let stack: Stack;
  let session: string;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: joinedAccount(160, { seed: 17 }) }, websocket: true });
    session = String(stack.sandbox.listed(KEY, 'tunnel_sessions')[0]?.id);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  const TUNNELS_OF = (first: number) =>
    `{ endpoints(first: ${first}) { nodes { url tunnel { node { ... on Tunnel { region } } } } } }`;

  it('endpoints(first: 30) with the tunnel join: predicted 32, fits at first: 23 (predicted 25), refused at 24', async () => {
    const { status, body, upstreamCalls } = await stack.gql(TUNNELS_OF(30));
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.message).toBe(
      'This operation would make up to 32 upstream calls; at most 25 are allowed. It would fit with first: 23 at endpoints; or ask for fewer items or joins, or split it.',
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'OPERATION_TOO_EXPENSIVE',
      upstreamCalls: { predicted: 32, limit: 25 },
      fitsWith: { path: ['endpoints'], first: 23 },
    });
    expect(upstreamCalls).toEqual({ predicted: 32, made: 0 });
    const fits = await stack.gql(TUNNELS_OF(23));
    expect(fits.body.errors).toBeUndefined();
    expect(fits.upstreamCalls).toEqual({ predicted: 25, made: 2 });
    const over = await stack.gql(TUNNELS_OF(24));
    expect(over.body.errors?.[0]?.extensions).toMatchObject({
      upstreamCalls: { predicted: 26, limit: 25 },
      fitsWith: { path: ['endpoints'], first: 23 },
    });
    expect(stack.sandbox.calls()).toBe(2);
  });

  it('over graphql-ws: the same refusal, naming the same first, with no call', async () => {
    const client = wsClient(stack.wsUrl, { key: KEY });
    try {
      const refused = await run(client, TUNNELS_OF(30));
      expect(refused.results[0]?.errors?.map((e) => [e.extensions?.code, e.extensions?.fitsWith])).toEqual([
        ['OPERATION_TOO_EXPENSIVE', { path: ['endpoints'], first: 23 }],
      ]);
      expect(refused.upstreamCalls).toEqual([{ predicted: 32, made: 0 }]);
      expect(stack.sandbox.calls()).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('the outermost page is lowered first; a page under a by-id field is named by its path, its first given by a variable', async () => {
    const sessions = await stack.gql(
      '{ tunnelSessions(first: 40) { nodes { endpoints(first: 5) { nodes { id } } } } }',
    );
    expect(sessions.upstreamCalls).toEqual({ predicted: 41, made: 0 });
    expect(sessions.body.errors?.[0]?.extensions?.fitsWith).toEqual({ path: ['tunnelSessions'], first: 24 });
    const nested = await stack.gql(
      `query($n: Int) { agent: tunnelSession(id: "${session}") { endpoints(first: $n) { nodes { tunnel { node { id } } } } } }`,
      { n: 40 },
    );
    // The agent 1, its page 1, the tunnels list and a GET for each of the 40 references: 43.
    expect(nested.upstreamCalls).toEqual({ predicted: 43, made: 0 });
    expect(nested.body.errors?.[0]?.message).toMatch(/It would fit with first: 22 at agent\.endpoints;/);
    expect(nested.body.errors?.[0]?.extensions?.fitsWith).toEqual({
      path: ['agent', 'endpoints'],
      first: 22,
    });
    const fits = await stack.gql(
      `query($n: Int) { agent: tunnelSession(id: "${session}") { endpoints(first: $n) { nodes { tunnel { node { id } } } } } }`,
      { n: 22 },
    );
    expect(fits.body.errors).toBeUndefined();
    expect(fits.upstreamCalls?.predicted).toBe(25);
    const over = await stack.gql(
      `query($n: Int) { agent: tunnelSession(id: "${session}") { endpoints(first: $n) { nodes { tunnel { node { id } } } } } }`,
      { n: 23 },
    );
    expect(over.upstreamCalls).toEqual({ predicted: 26, made: 0 });
  });

  it('a page inside a fragment is lowered where the fragment is spread', async () => {
    const { body, upstreamCalls } = await stack.gql(
      '{ ...Page } fragment Page on Query { endpoints(first: 50) { nodes { tunnel { node { id } } } } }',
    );
    expect(upstreamCalls).toEqual({ predicted: 52, made: 0 });
    expect(body.errors?.[0]?.extensions?.fitsWith).toEqual({ path: ['endpoints'], first: 23 });
  });

  it('when no page lowered alone makes it fit, the refusal says so without a first', async () => {
    const ids = stack.sandbox
      .listed(KEY, 'tunnel_sessions')
      .slice(0, 30)
      .map((s) => `tn_${String(s.id).slice(3)}`);
    const { body, upstreamCalls } = await stack.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id } endpoints(first: 5) { nodes { id } } }',
      { ids },
    );
    // Thirty tunnels by id, one GET each, and the page.
    expect(upstreamCalls).toEqual({ predicted: 31, made: 0 });
    expect(body.errors?.[0]?.message).toBe(
      'This operation would make up to 31 upstream calls; at most 25 are allowed. Ask for fewer items or joins, or split it.',
    );
    expect(body.errors?.[0]?.extensions?.fitsWith).toBeUndefined();
    expect(stack.sandbox.calls()).toBe(0);
  });
});
