// The account graph's queries: tunnelSessions, reservedDomains and reservedAddresses page like the
// other connections (one call a page, exact hasNextPage), every field maps from the upstream's JSON
// (absent and "" fields are null), and the by-id fields and node(id) read the same items.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AccountSeed,
  agentSessionsOf,
  makeTunnels,
  newId,
  type RouteName,
  reservationsFor,
} from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

type Json = Record<string, unknown>;
const at = (minute: number) => new Date(Date.UTC(2025, 8, 1, 7, minute));

/** Agents of a few tunnels, plus one sending only what is required and one sending "" everywhere. */
function account(): AccountSeed {
  const tunnels = makeTunnels(8, { seed: 31, kind: 'agent' });
  const bare = { id: newId('ts', at(1)), started_at: '2025-09-01T07:01:00Z' };
  const empty = {
    id: newId('ts', at(2)),
    agent_version: '',
    ip: '',
    metadata: '',
    os: '',
    region: '',
    started_at: '2025-09-01T07:02:00Z',
    transport: '',
  };
  const reserved = reservationsFor(
    [...tunnels.map((t) => t.public_url ?? ''), 'https://shop.example.com'],
    5,
    at(0),
  );
  const plainAddr = { id: newId('ra', at(3)), created_at: '2025-09-01T07:03:00Z', addr: '9.tcp.ngrok.io:1' };
  return {
    tunnels,
    tunnelSessions: [...agentSessionsOf(tunnels), empty, bare],
    reservedDomains: reserved.reservedDomains,
    reservedAddrs: [...reserved.reservedAddrs, plainAddr],
  };
}

const ref = (v: unknown) => (v === undefined ? null : { id: (v as Json).id, uri: (v as Json).uri });
const text = (v: unknown) => (v === undefined || v === '' ? null : v);

interface Kind {
  readonly collection: 'tunnel_sessions' | 'reserved_domains' | 'reserved_addrs';
  readonly one: string;
  readonly list: RouteName;
  readonly fields: string;
  readonly expected: (u: Json) => Json;
}

/** Each kind: its fields as a client selects them, and what they must be for an upstream item. */
const KINDS: Record<string, Kind> = {
  tunnelSessions: {
    collection: 'tunnel_sessions',
    one: 'tunnelSession',
    list: 'listTunnelSessions',
    fields: 'id agentVersion credential { id uri } ip metadata os region startedAt transport',
    expected: (u: Json) => ({
      id: u.id,
      agentVersion: text(u.agent_version),
      credential: ref(u.credential),
      ip: text(u.ip),
      metadata: text(u.metadata),
      os: text(u.os),
      region: text(u.region),
      startedAt: u.started_at,
      transport: text(u.transport),
    }),
  },
  reservedDomains: {
    collection: 'reserved_domains',
    one: 'reservedDomain',
    list: 'listReservedDomains',
    fields: 'id domain region description metadata createdAt cnameTarget certificate { id uri }',
    expected: (u: Json) => ({
      id: u.id,
      domain: u.domain,
      region: text(u.region),
      description: text(u.description),
      metadata: text(u.metadata),
      createdAt: u.created_at,
      cnameTarget: text(u.cname_target),
      certificate: ref(u.certificate),
    }),
  },
  reservedAddresses: {
    collection: 'reserved_addrs',
    one: 'reservedAddress',
    list: 'listReservedAddrs',
    fields: 'id addr region description metadata createdAt',
    expected: (u: Json) => ({
      id: u.id,
      addr: u.addr,
      region: text(u.region),
      description: text(u.description),
      metadata: text(u.metadata),
      createdAt: u.created_at,
    }),
  },
};

interface Page {
  nodes: Json[];
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
}

describe('the account graph: lists and items by id', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: account() } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  for (const [field, kind] of Object.entries(KINDS)) {
    const upstream = () => stack.sandbox.listed(KEY, kind.collection);
    const page = (first: number, after: string | null) =>
      stack.gql(
        `query($first: Int, $after: String) { ${field}(first: $first, after: $after) {
          nodes { ${kind.fields} } edges { cursor node { id } }
          pageInfo { hasNextPage hasPreviousPage endCursor } } }`,
        { first, after },
      );

    it(`${field}: every field as the upstream sent it, null for absent or empty ones`, async () => {
      const { body } = await page(100, null);
      expect(body.errors).toBeUndefined();
      const got = dataOf<Page>(body, field);
      expect(got.nodes).toEqual(upstream().map(kind.expected));
      expect(got.pageInfo.hasNextPage).toBe(false);
      expect(stack.sandbox.calls(kind.list)).toBe(1);
      expect(stack.sandbox.calls()).toBe(1);
    });

    it(`${field}: pages of 2 walk the whole list, one call a page, hasNextPage exact`, async () => {
      const all = upstream().map((u) => u.id);
      expect(all.length).toBeGreaterThan(2);
      const seen: unknown[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const got: Page = dataOf<Page>((await page(2, after)).body, field);
        pages += 1;
        seen.push(...got.nodes.map((n) => n.id));
        expect(got.edges.map((e) => e.node.id)).toEqual(got.nodes.map((n) => n.id));
        expect(got.pageInfo.hasNextPage).toBe(seen.length < all.length);
        expect(got.pageInfo.hasPreviousPage).toBe(false);
        if (!got.pageInfo.hasNextPage) break;
        after = got.pageInfo.endCursor;
      }
      expect(seen).toEqual(all);
      expect(stack.sandbox.calls()).toBe(pages);
    });

    it(`${field}: by id and through node(id), one filtered list call for both; unknown ids are null`, async () => {
      const item = upstream().at(-1) as Json;
      const missing = newId(String(item.id).slice(0, 2));
      const { body } = await stack.gql(
        `query($id: ID!, $missing: ID!) { one: ${kind.one}(id: $id) { ${kind.fields} }
          node(id: $id) { __typename id } gone: ${kind.one}(id: $missing) { id } }`,
        { id: item.id, missing },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.one).toEqual(kind.expected(item));
      expect(body.data?.node).toEqual({ __typename: expect.any(String), id: item.id });
      expect(body.data?.gone).toBeNull();
      expect(stack.sandbox.calls(kind.list)).toBe(1);
      expect(stack.sandbox.calls()).toBe(1);
    });
  }

  it('node(id) names the type by the prefix', async () => {
    const ids = ['tunnel_sessions', 'reserved_domains', 'reserved_addrs'].map(
      (c) => stack.sandbox.listed(KEY, c as 'tunnel_sessions')[0]?.id,
    );
    const { body } = await stack.gql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids });
    expect(body.data?.nodes).toEqual([
      { __typename: 'TunnelSession', id: ids[0] },
      { __typename: 'ReservedDomain', id: ids[1] },
      { __typename: 'ReservedAddress', id: ids[2] },
    ]);
    expect(stack.sandbox.calls()).toBe(3);
  });

  it('refuses ids of another kind, malformed ids, foreign cursors and last/before, with no call', async () => {
    const endpointCursor = Buffer.from(`endpoint:${newId('ep')}`).toString('base64url');
    for (const [query, message] of [
      [`{ tunnelSession(id: "${newId('rd')}") { id } }`, /is not a tunnel session id/],
      [`{ reservedDomain(id: "rd_../x") { id } }`, /is not a reserved domain id/],
      [`{ reservedAddress(id: "${newId('ts')}") { id } }`, /is not a reserved address id/],
      [`{ tunnelSessions(after: "${endpointCursor}") { nodes { id } } }`, /not a cursor/],
      ['{ reservedDomains(last: 2) { nodes { id } } }', /forward only/],
      ['{ reservedAddresses(first: 101) { nodes { id } } }', /first must be from 1 to 100/],
    ] as const) {
      const { body } = await stack.gql(query);
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(body.errors?.[0]?.message).toMatch(message);
    }
    expect(stack.sandbox.calls()).toBe(0);
  });
});
