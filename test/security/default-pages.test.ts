// A dashboard's default page fits (issue 36, point 8): on the default settings, a page of 20 (the
// default `first`) of every list, with one join (Ref.node) or one reverse join, is admitted, with the
// calls predicted and made asserted exactly; an operation refused as too expensive names the largest
// `first` of one of its pages at which it would fit (message and `extensions.fitsWith`), outermost first.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

const SESSION = '... on TunnelSession { id os }';
const AGENT_ENDPOINTS = `tunnelSession { node { ... on TunnelSession { endpoints { nodes { id } } } } }`;

interface Case {
  readonly name: string;
  readonly query: (ids: Ids) => string;
  readonly predicted: number;
  readonly made: number;
  /** The list in the answer, by its path, and how many items it holds. */
  readonly list: readonly string[];
  readonly items: number;
}

interface Ids {
  readonly session: string;
  readonly domain: string;
  readonly address: string;
}

/**
 * Every list with one join and with one reverse join, pages of the default 20. Predicted: the page,
 * and for its 20 references one filtered list (endpoints, agents, reservations) or, for tunnels,
 * a list of the newest 100 and a GET for each reference it might miss (/tunnels has no id filter);
 * a reverse join one filtered endpoints call per parent.
 */
const CASES: readonly Case[] = [
  {
    name: 'tunnels, their agents joined',
    query: () => `{ tunnels { nodes { id tunnelSession { node { ${SESSION} } } } } }`,
    predicted: 2,
    made: 2,
    list: ['tunnels', 'nodes'],
    items: 20,
  },
  {
    name: 'tunnels, their endpoints joined',
    query: () => '{ tunnels { nodes { id endpoint { node { ... on Endpoint { id url } } } } } }',
    predicted: 2,
    made: 2,
    list: ['tunnels', 'nodes'],
    items: 20,
  },
  {
    name: "tunnels, their agents' endpoints (a reverse join through the reference)",
    query: () => `{ tunnels { nodes { id ${AGENT_ENDPOINTS} } } }`,
    predicted: 22,
    made: 22,
    list: ['tunnels', 'nodes'],
    items: 20,
  },
  {
    name: 'endpoints, their tunnels joined',
    query: () => '{ endpoints { nodes { id tunnel { node { ... on Tunnel { id region } } } } } }',
    predicted: 22,
    made: 2,
    list: ['endpoints', 'nodes'],
    items: 20,
  },
  {
    name: 'endpoints, their agents joined',
    query: () => `{ endpoints { nodes { id tunnelSession { node { ${SESSION} } } } } }`,
    predicted: 2,
    made: 2,
    list: ['endpoints', 'nodes'],
    items: 20,
  },
  {
    name: 'endpoints, their reserved domains joined',
    query: () => '{ endpoints { nodes { id domain { node { ... on ReservedDomain { id domain } } } } } }',
    predicted: 2,
    made: 2,
    list: ['endpoints', 'nodes'],
    items: 20,
  },
  {
    name: 'endpoints, their TCP addresses joined',
    query: () => '{ endpoints { nodes { id tcpAddr { node { ... on ReservedAddress { id addr } } } } } }',
    predicted: 2,
    made: 2,
    list: ['endpoints', 'nodes'],
    items: 20,
  },
  {
    name: "endpoints, their agents' endpoints (a reverse join through the reference)",
    query: () => `{ endpoints { nodes { id ${AGENT_ENDPOINTS} } } }`,
    predicted: 22,
    made: 22,
    list: ['endpoints', 'nodes'],
    items: 20,
  },
  {
    name: 'tunnel sessions, their credentials (a kind this schema does not serve: no call)',
    query: () => '{ tunnelSessions { nodes { id credential { id node { id } } } } }',
    predicted: 1,
    made: 1,
    list: ['tunnelSessions', 'nodes'],
    items: 20,
  },
  {
    name: 'tunnel sessions, their endpoints (reverse join)',
    query: () => '{ tunnelSessions { nodes { id endpoints { nodes { id url } } } } }',
    predicted: 21,
    made: 21,
    list: ['tunnelSessions', 'nodes'],
    items: 20,
  },
  {
    name: 'reserved domains, their certificates (a kind this schema does not serve: no call)',
    query: () => '{ reservedDomains { nodes { id certificate { id node { id } } } } }',
    predicted: 1,
    made: 1,
    list: ['reservedDomains', 'nodes'],
    items: 20,
  },
  {
    name: 'reserved domains, their endpoints (reverse join)',
    query: () => '{ reservedDomains { nodes { id endpoints { nodes { id url } } } } }',
    predicted: 21,
    made: 21,
    list: ['reservedDomains', 'nodes'],
    items: 20,
  },
  {
    name: 'reserved addresses, their endpoints (reverse join)',
    query: () => '{ reservedAddresses { nodes { id endpoints { nodes { id url } } } } }',
    predicted: 21,
    made: 21,
    list: ['reservedAddresses', 'nodes'],
    items: 20,
  },
  {
    name: "an agent's endpoints, their tunnels joined",
    query: ({ session }) =>
      `{ tunnelSession(id: "${session}") { endpoints { nodes { id tunnel { node { ... on Tunnel { id } } } } } } }`,
    predicted: 23,
    made: 3,
    list: ['tunnelSession', 'endpoints', 'nodes'],
    items: 1,
  },
  {
    name: "a domain's endpoints, their agents joined",
    query: ({ domain }) =>
      `{ reservedDomain(id: "${domain}") { endpoints { nodes { id tunnelSession { node { ${SESSION} } } } } } }`,
    predicted: 3,
    made: 3,
    list: ['reservedDomain', 'endpoints', 'nodes'],
    items: 1,
  },
  {
    name: "an address's endpoints, their agents' endpoints (a reverse join through the reference)",
    query: ({ address }) =>
      `{ reservedAddress(id: "${address}") { endpoints { nodes { id ${AGENT_ENDPOINTS} } } } }`,
    predicted: 23,
    made: 4,
    list: ['reservedAddress', 'endpoints', 'nodes'],
    items: 1,
  },
];

const at = (body: { data?: unknown }, path: readonly string[]): unknown =>
  path.reduce<unknown>((value, key) => (value as Record<string, unknown> | null)?.[key], body.data);

describe('a page of 20 with one join or reverse join, on the default settings', () => {
  let stack: Stack;
  let ids: Ids;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: joinedAccount(160, { seed: 17 }) } });
    const first = (collection: 'tunnel_sessions' | 'reserved_domains' | 'reserved_addrs') =>
      stack.sandbox.listed(KEY, collection)[0]?.id ?? '';
    ids = {
      session: first('tunnel_sessions'),
      domain: first('reserved_domains'),
      address: first('reserved_addrs'),
    };
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  for (const c of CASES) {
    it(`${c.name}: predicted ${c.predicted}, made ${c.made}`, async () => {
      const { status, body, upstreamCalls } = await stack.gql(c.query(ids));
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(at(body, c.list)).toHaveLength(c.items);
      expect(upstreamCalls).toEqual({ predicted: c.predicted, made: c.made });
      expect(stack.sandbox.calls()).toBe(c.made);
    });
  }

  it('every join is answered: the 20 endpoints of the page each with its tunnel', async () => {
    const { body } = await stack.gql(
      '{ endpoints { nodes { tunnel { id node { ... on Tunnel { id } } } } } }',
    );
    const nodes = dataOf<{ nodes: { tunnel: { id: string; node: { id: string } | null } }[] }>(
      body,
      'endpoints',
    ).nodes;
    expect(nodes.map((n) => n.tunnel.node?.id)).toEqual(nodes.map((n) => n.tunnel.id));
  });
});

describe('a refusal names the largest first that fits (default: 25 calls)', () => {
  let stack: Stack;
  let session: string;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: joinedAccount(160, { seed: 17 }) }, websocket: true });
    session = stack.sandbox.listed(KEY, 'tunnel_sessions')[0]?.id ?? '';
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
      .map((s) => `tn_${s.id.slice(3)}`);
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
