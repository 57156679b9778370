// Joins of the account graph: the references of one response to one kind are fetched together (one
// filtered list call per 100 distinct ids, across every page of the response), a list read in the
// same response answers without a call, and the reverse joins (an agent's or a reservation's
// endpoints) are one filtered endpoints call per page.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

type Json = Record<string, unknown>;
const cursorAfter = (id: string) => Buffer.from(`endpoint:${id}`).toString('base64url');
const JOINED = `id
  tunnelSession { id node { __typename ... on TunnelSession { id os agentVersion } } }
  domain { id node { __typename ... on ReservedDomain { id domain } } }
  tcpAddr { id node { __typename ... on ReservedAddress { id addr } } }`;

interface Joined {
  id: string;
  tunnelSession: { id: string; node: Json | null } | null;
  domain: { id: string; node: Json | null } | null;
  tcpAddr: { id: string; node: Json | null } | null;
}

describe('account-graph references fetched together', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: joinedAccount(160, { seed: 13 }) } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  const byId = (collection: 'tunnel_sessions' | 'reserved_domains' | 'reserved_addrs') =>
    new Map(stack.sandbox.listed(KEY, collection).map((item) => [item.id, item]));
  const distinct = (values: (string | undefined)[]) => new Set(values.filter((v) => v !== undefined)).size;

  it('150 endpoints joined to their agents, domains and addresses: one call per 100 distinct ids of a kind', async () => {
    const endpoints = stack.sandbox.listEndpoints(KEY).slice(0, 150);
    const { body, upstreamCalls } = await stack.gql(
      `query($after: String!) { a: endpoints(first: 100) { nodes { ${JOINED} } }
        b: endpoints(first: 50, after: $after) { nodes { ${JOINED} } } }`,
      { after: cursorAfter(endpoints[99]?.id ?? '') },
    );
    expect(body.errors?.map((e) => [e.message, e.extensions])).toBeUndefined();
    const nodes = [
      ...dataOf<{ nodes: Joined[] }>(body, 'a').nodes,
      ...dataOf<{ nodes: Joined[] }>(body, 'b').nodes,
    ];
    expect(nodes.map((n) => n.id)).toEqual(endpoints.map((e) => e.id));
    const sessions = byId('tunnel_sessions');
    const domains = byId('reserved_domains');
    const addrs = byId('reserved_addrs');
    for (const [i, node] of nodes.entries()) {
      const e = endpoints[i];
      const s = sessions.get(String(e?.tunnel_session?.id));
      expect(node.tunnelSession?.node).toEqual({
        __typename: 'TunnelSession',
        id: s?.id,
        os: s?.os,
        agentVersion: s?.agent_version,
      });
      const d = e?.domain ? domains.get(e.domain.id) : undefined;
      expect(node.domain?.node ?? null).toEqual(
        d ? { __typename: 'ReservedDomain', id: d.id, domain: d.domain } : null,
      );
      const a = e?.tcp_addr ? addrs.get(e.tcp_addr.id) : undefined;
      expect(node.tcpAddr?.node ?? null).toEqual(
        a ? { __typename: 'ReservedAddress', id: a.id, addr: a.addr } : null,
      );
    }
    const counts = {
      sessions: distinct(endpoints.map((e) => e.tunnel_session?.id)),
      domains: distinct(endpoints.map((e) => e.domain?.id)),
      addrs: distinct(endpoints.map((e) => e.tcp_addr?.id)),
    };
    // Fixture check: the references span two pages of endpoints, and addresses fit one batch.
    expect(counts.sessions).toBe(150);
    expect(counts.domains).toBeGreaterThan(100);
    expect(counts.addrs).toBeGreaterThan(20);
    expect(counts.addrs).toBeLessThanOrEqual(100);
    const calls = {
      listEndpoints: 2,
      listTunnelSessions: Math.ceil(counts.sessions / 100),
      listReservedDomains: Math.ceil(counts.domains / 100),
      listReservedAddrs: Math.ceil(counts.addrs / 100),
    };
    expect(calls).toEqual({
      listEndpoints: 2,
      listTunnelSessions: 2,
      listReservedDomains: 2,
      listReservedAddrs: 1,
    });
    for (const [route, count] of Object.entries(calls))
      expect([route, stack.sandbox.calls(route as 'listEndpoints')]).toEqual([route, count]);
    expect(stack.sandbox.calls()).toBe(7);
    // The planner predicts what this join may cost at most: the two pages, and one call per 100 of the
    // (up to 150) references of each kind: 2 + 2 + 2 + 2. The addresses repeat, so one call serves them.
    expect(upstreamCalls).toEqual({ predicted: 8, made: 7 });
    for (const route of ['getTunnelSession', 'getReservedDomain', 'getReservedAddr'] as const)
      expect(stack.sandbox.calls(route)).toBe(0);
  });

  it('a list read in the same response answers its references: sessions listed cost no second call', async () => {
    const { body } = await stack.gql(
      `{ tunnelSessions(first: 100) { nodes { id } }
         endpoints(first: 100) { nodes { tunnelSession { node { id } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const listed = new Set(
      dataOf<{ nodes: { id: string }[] }>(body, 'tunnelSessions').nodes.map((n) => n.id),
    );
    const refs = dataOf<{ nodes: { tunnelSession: { node: { id: string } } }[] }>(body, 'endpoints').nodes;
    expect(refs.every((r) => listed.has(r.tunnelSession.node.id))).toBe(true);
    expect([stack.sandbox.calls('listTunnelSessions'), stack.sandbox.calls('listEndpoints')]).toEqual([1, 1]);
    expect(stack.sandbox.calls()).toBe(2);
  });

  it('the same id asked many ways is fetched once; its credential joins in one more call', async () => {
    const e = stack.sandbox.listEndpoints(KEY)[120];
    const ts = String(e?.tunnel_session?.id);
    const { body } = await stack.gql(
      `query($ts: ID!, $ids: [ID!]!) { tunnelSession(id: $ts) { id credential { id node { id } } }
         node(id: $ts) { id } nodes(ids: $ids) { id } }`,
      { ts, ids: [ts, ts] },
    );
    expect(body.errors).toBeUndefined();
    const credential = stack.sandbox.listed(KEY, 'tunnel_sessions').find((s) => s.id === ts)?.credential as {
      id: string;
    };
    expect(body.data).toMatchObject({
      tunnelSession: { id: ts, credential: { id: credential.id, node: { id: credential.id } } },
      node: { id: ts },
    });
    expect(body.data?.nodes).toEqual([{ id: ts }, { id: ts }]);
    expect([stack.sandbox.calls('listTunnelSessions'), stack.sandbox.calls('listCredentials')]).toEqual([
      1, 1,
    ]);
    expect(stack.sandbox.calls()).toBe(2);
  });

  it("reverse joins: an agent's, a domain's and an address's endpoints, one filtered call each", async () => {
    const endpoints = stack.sandbox.listEndpoints(KEY);
    const onDomain = endpoints.find((x) => x.domain !== undefined);
    const onAddr = endpoints.find((x) => x.tcp_addr !== undefined);
    const { body } = await stack.gql(
      `query($ts: ID!, $rd: ID!, $ra: ID!) {
        tunnelSession(id: $ts) { endpoints { nodes { id } pageInfo { hasNextPage } } }
        reservedDomain(id: $rd) { endpoints(first: 5) { nodes { id url } } }
        reservedAddress(id: $ra) { endpoints { nodes { id url } } } }`,
      { ts: onDomain?.tunnel_session?.id, rd: onDomain?.domain?.id, ra: onAddr?.tcp_addr?.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      tunnelSession: { endpoints: { nodes: [{ id: onDomain?.id }], pageInfo: { hasNextPage: false } } },
      reservedDomain: { endpoints: { nodes: [{ id: onDomain?.id, url: onDomain?.url }] } },
      reservedAddress: { endpoints: { nodes: [{ id: onAddr?.id, url: onAddr?.url }] } },
    });
    expect(stack.sandbox.calls('listEndpoints')).toBe(3);
    expect(stack.sandbox.calls()).toBe(6);
  });
});
