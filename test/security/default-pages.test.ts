// A dashboard's default page fits: on the default settings, a page of 20 (the default `first`) of
// every list, with one join (Ref.node) or one reverse join, is admitted, with the calls predicted and
// made asserted exactly (a refusal's advice: too-expensive-advice.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

const SESSION = '... on TunnelSession { id os }';
const AGENT_ENDPOINTS = `tunnelSession { node { ... on TunnelSession { endpoints { nodes { id } } } } }`;

interface Ids {
  readonly session: string;
  readonly domain: string;
  readonly address: string;
}

/** What is asked, what it is predicted and made, and where the list of the answer is (and its length). */
type Case = readonly [
  name: string,
  query: (ids: Ids) => string,
  predicted: number,
  made: number,
  list: string,
  items: number,
];

/**
 * Every list with one join and with one reverse join, pages of the default 20. Predicted: the page,
 * and for its 20 references one filtered list (endpoints, agents, reservations) or, for tunnels,
 * a list of the newest 100 and a GET for each reference it might miss (/tunnels has no id filter);
 * a reverse join one filtered endpoints call per parent.
 */
const CASES: readonly Case[] = [
  [
    'tunnels, their agents joined',
    () => `{ tunnels { nodes { id tunnelSession { node { ${SESSION} } } } } }`,
    2,
    2,
    'tunnels',
    20,
  ],
  [
    'tunnels, their endpoints joined',
    () => '{ tunnels { nodes { id endpoint { node { ... on Endpoint { id url } } } } } }',
    2,
    2,
    'tunnels',
    20,
  ],
  [
    "tunnels, their agents' endpoints (a reverse join through the reference)",
    () => `{ tunnels { nodes { id ${AGENT_ENDPOINTS} } } }`,
    22,
    22,
    'tunnels',
    20,
  ],
  [
    'endpoints, their tunnels joined',
    () => '{ endpoints { nodes { id tunnel { node { ... on Tunnel { id region } } } } } }',
    22,
    2,
    'endpoints',
    20,
  ],
  [
    'endpoints, their agents joined',
    () => `{ endpoints { nodes { id tunnelSession { node { ${SESSION} } } } } }`,
    2,
    2,
    'endpoints',
    20,
  ],
  [
    'endpoints, their reserved domains joined',
    () => '{ endpoints { nodes { id domain { node { ... on ReservedDomain { id domain } } } } } }',
    2,
    2,
    'endpoints',
    20,
  ],
  [
    'endpoints, their TCP addresses joined',
    () => '{ endpoints { nodes { id tcpAddr { node { ... on ReservedAddress { id addr } } } } } }',
    2,
    2,
    'endpoints',
    20,
  ],
  [
    "endpoints, their agents' endpoints (a reverse join through the reference)",
    () => `{ endpoints { nodes { id ${AGENT_ENDPOINTS} } } }`,
    22,
    22,
    'endpoints',
    20,
  ],
  [
    'tunnel sessions, their credentials (one filtered credentials call)',
    () => '{ tunnelSessions { nodes { id credential { id node { id } } } } }',
    2,
    2,
    'tunnelSessions',
    20,
  ],
  [
    'tunnel sessions, their endpoints (reverse join)',
    () => '{ tunnelSessions { nodes { id endpoints { nodes { id url } } } } }',
    21,
    21,
    'tunnelSessions',
    20,
  ],
  [
    'reserved domains, their certificates (none of its 20 names one here: no call)',
    () => '{ reservedDomains { nodes { id certificate { id node { id } } } } }',
    2,
    1,
    'reservedDomains',
    20,
  ],
  [
    'reserved domains, their endpoints (reverse join)',
    () => '{ reservedDomains { nodes { id endpoints { nodes { id url } } } } }',
    21,
    21,
    'reservedDomains',
    20,
  ],
  [
    'reserved addresses, their endpoints (reverse join)',
    () => '{ reservedAddresses { nodes { id endpoints { nodes { id url } } } } }',
    21,
    21,
    'reservedAddresses',
    20,
  ],
  [
    "an agent's endpoints, their tunnels joined",
    ({ session }) =>
      `{ tunnelSession(id: "${session}") { endpoints { nodes { id tunnel { node { ... on Tunnel { id } } } } } } }`,
    23,
    3,
    'tunnelSession.endpoints',
    1,
  ],
  [
    "a domain's endpoints, their agents joined",
    ({ domain }) =>
      `{ reservedDomain(id: "${domain}") { endpoints { nodes { id tunnelSession { node { ${SESSION} } } } } } }`,
    3,
    3,
    'reservedDomain.endpoints',
    1,
  ],
  [
    "an address's endpoints, their agents' endpoints (a reverse join through the reference)",
    ({ address }) =>
      `{ reservedAddress(id: "${address}") { endpoints { nodes { id ${AGENT_ENDPOINTS} } } } }`,
    23,
    4,
    'reservedAddress.endpoints',
    1,
  ],
];

/** The nodes of the connection at `path` (dotted response keys). */
const nodesAt = (body: { data?: unknown }, path: string): unknown =>
  [...path.split('.'), 'nodes'].reduce<unknown>(
    (value, key) => (value as Record<string, unknown> | null)?.[key],
    body.data,
  );

describe('a page of 20 with one join or reverse join, on the default settings', () => {
  let stack: Stack;
  let ids: Ids;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: joinedAccount(160, { seed: 17 }) } });
    const first = (collection: 'tunnel_sessions' | 'reserved_domains' | 'reserved_addrs') =>
      String(stack.sandbox.listed(KEY, collection)[0]?.id);
    ids = {
      session: first('tunnel_sessions'),
      domain: first('reserved_domains'),
      address: first('reserved_addrs'),
    };
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  for (const [name, query, predicted, made, list, items] of CASES) {
    it(`${name}: predicted ${predicted}, made ${made}`, async () => {
      const { status, body, upstreamCalls } = await stack.gql(query(ids));
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(nodesAt(body, list)).toHaveLength(items);
      expect(upstreamCalls).toEqual({ predicted, made });
      expect(stack.sandbox.calls()).toBe(made);
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
