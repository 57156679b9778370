// Live queries (@live) over SSE and graphql-ws against the stand-in: the first payload is the query's
// result (revision 1), then JSON Patches that, applied with applyLiveQueryJSONPatch, give exactly what
// the same query without @live answers once the stand-in has changed; every re-evaluation is made
// from the account's one shared observation, so the stand-in sees only the poller's walks.
import { afterEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { type LiveClient, liveSse, liveWs } from './live-query-support';
import { KEY, metric, type Stack, startLiveStack, until, wsClient } from './support';

const TUNNELS = `query Tunnels @live { tunnels(first: 3) { nodes { id publicUrl proto } pageInfo { hasNextPage endCursor } } }`;
const ENDPOINTS = `query Endpoints($filter: EndpointFilter) @live {
  endpoints(first: 4, filter: $filter) { nodes { id url type } pageInfo { hasNextPage } }
}`;
const AGENTS = `query Agents @live {
  tunnelSessions(first: 5) {
    nodes { id region endpoints(first: 3) { nodes { url domain { id node { ... on ReservedDomain { domain } } } } } }
  }
}`;
const NODES = `query Nodes($ids: [ID!]!) @live { nodes(ids: $ids) { id ... on Tunnel { publicUrl } ... on Endpoint { url } } }`;

/** The same operation without @live: what a plain query answers now. */
const plain = (query: string) => query.replace(' @live', '');

describe('live queries', () => {
  let stack: Stack;
  const open: LiveClient[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await stack.close();
  });

  const start = () => startLiveStack({ accounts: { [KEY]: joinedAccount(8, { seed: 38 }) } });

  /** Waits until `client`'s patched data equals a fresh plain answer of `query`. */
  async function converges(client: LiveClient, query: string, variables: Record<string, unknown> = {}) {
    let fresh: unknown;
    await until(async () => {
      fresh = (await stack.gql(plain(query), variables)).body.data;
      return JSON.stringify(await client.data()) === JSON.stringify(fresh);
    }, 'the live result to equal a fresh answer');
    expect(await client.data()).toEqual(fresh);
  }

  it('answers a page of tunnels, then patches it as tunnels come and go, with no call but the polls', async () => {
    stack = await start();
    const client = await liveSse(stack.url, KEY, TUNNELS);
    open.push(client);
    const [first] = await client.received(1);
    expect(first?.revision).toBe(1);
    expect(first?.data).toEqual((await stack.gql(plain(TUNNELS))).body.data);
    await until(async () => (await metric(stack.gateway, 'gateway_live_polls_total')) >= 1, 'a first walk');
    const calls = stack.sandbox.calls();
    const polled = await metric(stack.gateway, 'gateway_live_poll_upstream_calls_total');
    const added = stack.sandbox.addTunnel(KEY);
    await until(() => client.payloads.length >= 2, 'a patch');
    expect(client.payloads[1]).toMatchObject({
      revision: 2,
      extensions: { upstreamCalls: { predicted: 0, made: 0 } },
    });
    expect(client.payloads[1]?.patch).toEqual(
      expect.arrayContaining([expect.objectContaining({ op: expect.any(String) })]),
    );
    expect(((await client.data()) as { tunnels: { nodes: { id: string }[] } }).tunnels.nodes[0]?.id).toBe(
      added.id,
    );
    stack.sandbox.removeTunnel(KEY, added.id);
    await until(() => client.payloads.length >= 3, 'a second patch');
    // Every call since came from the poller's walks: none from the re-evaluations.
    expect(stack.sandbox.calls() - calls).toBe(
      (await metric(stack.gateway, 'gateway_live_poll_upstream_calls_total')) - polled,
    );
    await converges(client, TUNNELS);
  });

  it('keeps a filtered page of endpoints, agents joined to their endpoints and domains, and nodes(ids) exact', async () => {
    stack = await start();
    const endpoints = stack.sandbox.listEndpoints(KEY);
    const ids = [endpoints[0]?.id, stack.sandbox.account(KEY).tunnels?.[1]?.id];
    const filter = { types: ['AGENT'] };
    const clients = [
      await liveSse(stack.url, KEY, ENDPOINTS, { filter }),
      await liveSse(stack.url, KEY, AGENTS, {}, 'GET'),
      await liveSse(stack.url, KEY, NODES, { ids }),
    ];
    open.push(...clients);
    for (const c of clients) await c.received(1);
    const tunnel = stack.sandbox.account(KEY).tunnels?.[1];
    if (tunnel) stack.sandbox.removeTunnel(KEY, tunnel.id);
    stack.sandbox.addTunnel(KEY);
    stack.sandbox.addEndpoint(KEY);
    await converges(clients[0] as LiveClient, ENDPOINTS, { filter });
    await converges(clients[1] as LiveClient, AGENTS);
    await converges(clients[2] as LiveClient, NODES, { ids });
    // Each was patched (the removed tunnel's agent endpoint and node are gone), and each stays open.
    expect(clients.map((c) => c.payloads.length > 1 && c.ended === undefined)).toEqual([true, true, true]);
  });

  it('writes its request log line when it ends, not before', async () => {
    stack = await start();
    const client = await liveSse(stack.url, KEY, TUNNELS.replace('query Tunnels', 'query LoggedLive'));
    open.push(client);
    await client.received(1);
    stack.sandbox.addTunnel(KEY);
    await client.received(2);
    const logged = () => stack.lines().filter((line) => JSON.stringify(line).includes('LoggedLive'));
    expect(logged()).toEqual([]);
    client.close();
    await until(() => logged().length === 1, 'the line of the live query');
    expect(logged()[0]).toMatchObject({ operationType: 'query', status: 200 });
  });

  it('sends nothing while nothing changes, and evaluates identical live queries once per observation', async () => {
    stack = await start();
    const ws = wsClient(stack.wsUrl, KEY);
    const clients = [await liveSse(stack.url, KEY, TUNNELS), liveWs(ws, TUNNELS), liveWs(ws, TUNNELS)];
    open.push(...clients);
    for (const c of clients) await c.received(1);
    expect(stack.gateway.live.liveQueryGroups()).toBe(1);
    const polls = await metric(stack.gateway, 'gateway_live_polls_total', {
      list: 'tunnels',
      outcome: 'complete',
    });
    await until(
      async () =>
        (await metric(stack.gateway, 'gateway_live_polls_total', { list: 'tunnels', outcome: 'complete' })) >=
        polls + 3,
      'three more walks',
    );
    expect(clients.map((c) => c.payloads.length)).toEqual([1, 1, 1]);
    const evaluations = await metric(stack.gateway, 'gateway_live_query_evaluations_total');
    stack.sandbox.addTunnel(KEY);
    for (const c of clients) await c.received(2);
    expect(
      await metric(stack.gateway, 'gateway_live_query_evaluations_total', { outcome: 'changed' }),
    ).toBeGreaterThan(0);
    // One group: the change was evaluated once for the three clients (each later walk once more).
    const walks = await metric(stack.gateway, 'gateway_live_polls_total', { list: 'tunnels' });
    expect(
      (await metric(stack.gateway, 'gateway_live_query_evaluations_total')) - evaluations,
    ).toBeLessThanOrEqual(walks - polls);
    for (const c of clients) expect(await c.data()).toEqual(await clients[0]?.data());
    // The metrics: three open, three first results and three patches sent, with their bytes.
    expect(await metric(stack.gateway, 'gateway_live_queries')).toBe(3);
    expect(await metric(stack.gateway, 'gateway_live_query_payloads_total', { kind: 'result' })).toBe(3);
    expect(await metric(stack.gateway, 'gateway_live_query_payloads_total', { kind: 'patch' })).toBe(3);
    const patchBytes = clients.reduce((sum, c) => sum + JSON.stringify(c.payloads[1]).length, 0);
    // What was sent is what the clients read, but for the extensions each transport adds (upstreamCalls).
    expect(
      await metric(stack.gateway, 'gateway_live_query_payload_bytes_total', { kind: 'patch' }),
    ).toBeGreaterThan(0);
    expect(
      await metric(stack.gateway, 'gateway_live_query_payload_bytes_total', { kind: 'patch' }),
    ).toBeLessThanOrEqual(patchBytes);
    for (const c of clients) c.close();
    await until(
      async () => (await metric(stack.gateway, 'gateway_live_queries')) === 0,
      'every live query to close',
    );
    expect(stack.gateway.live.liveQueryGroups()).toBe(0);
    await ws.dispose();
  });
});
