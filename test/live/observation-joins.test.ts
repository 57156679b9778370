// The joins of one observation's events are made together (one batch per kind per 100 distinct
// references, whatever the number of events), paid from the live share of the budget
// (LIVE_POLL_BUDGET_PER_MIN), counted in the subscription's log line and in metrics, and refused
// by ending the subscription with RATE_LIMITED when the live share has no room; admission predicts
// them per observation, and no observation makes more.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { KEY, type Stack } from '../support/stack';
import {
  ENDPOINT_EVENTS,
  EVENTS,
  metric,
  type Subscriber,
  sse,
  startLiveStack,
  until,
  wsClient,
  wsSubscribe,
} from './support';

/** Each endpoint's agent session, joined. */
const SESSIONS_JOINED = ENDPOINT_EVENTS('id tunnelSession { id node { ... on TunnelSession { id } } }');

/** Each tunnel's session and agent endpoint, and the endpoint's domain, joined. */
const TUNNELS_JOINED = EVENTS(`id
  tunnelSession { id node { ... on TunnelSession { id } } }
  endpoint { id node { ... on Endpoint { id domain { id node { ... on ReservedDomain { id } } } } } }`);

/** One walk only: the poller's calls are the first walk's, every later call is a join. */
// The events admitted per observation scale with MAX_UPSTREAM_CALLS_PER_OPERATION: the figures here are at 10.
const ONE_WALK = {
  LIVE_POLL_INTERVAL_MS: '600000',
  UPSTREAM_RATE_LIMIT_PER_MIN: '120',
  MAX_UPSTREAM_CALLS_PER_OPERATION: '10',
};

const ENDPOINTS_PAGE = 'query { endpoints(first: 100) { nodes { id } } }';

type Json = Record<string, unknown>;

/** `count` agent tunnels, each on a session of its own: `count` agents, each with its endpoint. */
const agents = (count: number, seed: number) =>
  makeTunnels(count, { seed, kind: 'agent' }).map((tunnel) => ({
    ...tunnel,
    tunnel_session: { ...tunnel.tunnel_session, id: newId('ts', new Date(tunnel.started_at)) },
  }));

/** The request line of the subscription (written when its stream ended). */
function subscriptionLine(stack: Stack): { upstream: { predicted: number; made: number } } | undefined {
  return stack.lines().find((line) => line.msg === 'request' && line.operationType === 'subscription') as
    | { upstream: { predicted: number; made: number } }
    | undefined;
}

describe("the joins of one observation's events", () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
  });

  const subscribe = async (query: string) => {
    const s = await sse(stack.url, KEY, { includeCurrent: true }, query);
    open.push(s);
    return s;
  };
  const overSocket = (query: string) => {
    const client = wsClient(stack.wsUrl, KEY);
    const s = wsSubscribe(client, { includeCurrent: true }, query);
    open.push({
      ...s,
      close: () => {
        s.close();
        void client.dispose();
      },
    });
    return s;
  };

  it('130 agents joined to their sessions: 2 session lists for the current set, paid from the live share; a query is admitted right after', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: agents(130, 90) } },
      // A walk every 3 s, for the later observation (the poller lists endpoints only).
      env: { ...ONE_WALK, LIVE_POLL_INTERVAL_MS: '3000' },
    });
    const s = await subscribe(SESSIONS_JOINED);
    const results = await s.received(130);
    expect(s.results).toHaveLength(130);
    const sessions = new Set<string>();
    for (const result of results) {
      expect(result.errors).toBeUndefined();
      const session = result.data?.endpointEvents?.endpoint.tunnelSession as { id: string; node: Json };
      expect(session.node).toEqual({ id: session.id });
      sessions.add(session.id);
    }
    expect(sessions.size).toBe(130);
    // One list per 100 distinct sessions, not one per event.
    expect(stack.sandbox.calls('listTunnelSessions')).toBe(2);
    const claims = stack.of('budget').filter((e) => e.route === 'listTunnelSessions');
    expect(claims.map((e) => [e.kind, e.outcome])).toEqual([
      ['poll', 'granted'],
      ['poll', 'granted'],
    ]);
    expect(await metric(stack.gateway, 'gateway_live_join_calls_total', { list: 'endpoints' })).toBe(2);

    const query = await stack.gql(ENDPOINTS_PAGE);
    expect(query.status).toBe(200);
    expect(query.upstreamCalls).toEqual({ predicted: 1, made: 1 });

    // A later observation (a new agent): its one event's session joined in one call.
    stack.sandbox.addTunnel(KEY, agents(1, 94)[0]);
    await s.received(131);
    expect(s.results[130]?.errors).toBeUndefined();
    expect(stack.sandbox.calls('listTunnelSessions')).toBe(3);

    s.close();
    await until(() => subscriptionLine(stack) !== undefined, 'the subscription line');
    // Predicted per observation: one call per 100 events, for the 1,000 events 10 calls admit.
    expect(subscriptionLine(stack)?.upstream).toMatchObject({ predicted: 10, made: 3 });
  });

  it.each(['sse', 'graphql-ws'] as const)(
    '30 tunnels joined to their sessions, agent endpoints and domains: one call per kind for the 30 events (%s)',
    async (transport) => {
      const tunnels = makeTunnels(30, { seed: 91, kind: 'agent' });
      stack = await startLiveStack({ accounts: { [KEY]: { tunnels } }, env: ONE_WALK });
      const s = transport === 'sse' ? await subscribe(TUNNELS_JOINED) : overSocket(TUNNELS_JOINED);
      const results = await s.received(30);
      const domains = new Set<string>();
      for (const result of results) {
        expect(result.errors).toBeUndefined();
        const tunnel = result.data?.tunnelEvents.tunnel as Json;
        const session = tunnel.tunnelSession as { id: string; node: Json };
        expect(session.node).toEqual({ id: session.id });
        const endpoint = tunnel.endpoint as {
          id: string;
          node: { id: string; domain: { id: string } | null };
        };
        expect(endpoint.node.id).toBe(endpoint.id);
        if (endpoint.node.domain) domains.add(endpoint.node.domain.id);
      }
      expect(stack.sandbox.calls('listTunnelSessions')).toBe(1);
      // The poller walks tunnels only: every endpoint list is the join's.
      expect(stack.sandbox.calls('listEndpoints')).toBe(1);
      expect(stack.sandbox.calls('listReservedDomains')).toBe(domains.size > 0 ? 1 : 0);
      s.close();
      await until(() => subscriptionLine(stack) !== undefined, 'the subscription line');
      // Three joins of 1 call per 100 events: 300 events admitted, 9 calls predicted per observation.
      const made = 2 + (domains.size > 0 ? 1 : 0);
      expect(subscriptionLine(stack)?.upstream).toMatchObject({ predicted: 9, made });
    },
  );

  it("the issue's document (each session's endpoints page): 2 events an observation admitted, the 30 ended past them", async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: agents(30, 92) } },
      env: ONE_WALK,
    });
    const s = await subscribe(
      EVENTS(`id tunnelSession { node { ... on TunnelSession { endpoints(first: 100) { nodes { id } } } } }
        endpoint { node { ... on Endpoint { domain { node { id } } } } }`),
    );
    await until(() => s.ended !== undefined, 'the end of the stream');
    // 4 calls an event at most (its session, that session's endpoints, its endpoint, its domain): 2 events in 8.
    expect(s.results).toHaveLength(3);
    for (const result of s.results.slice(0, 2)) expect(result.errors).toBeUndefined();
    const last = s.results[2]?.errors?.[0];
    expect(last?.extensions?.code).toBe('OPERATION_TOO_EXPENSIVE');
    expect(last?.message).toMatch(/more than 2 events/);
    // Each event's session and endpoint (the walk lists tunnels only), and each session's endpoints.
    expect(stack.sandbox.calls('listTunnelSessions')).toBe(2);
    expect(stack.sandbox.calls('listEndpoints')).toBe(4);
    await until(() => subscriptionLine(stack) !== undefined, 'the subscription line');
    const made = 6 + stack.sandbox.calls('listReservedDomains');
    expect(subscriptionLine(stack)?.upstream).toMatchObject({ predicted: 8, made });
  });

  it("admission: no join predicts 0; one event's joins above MAX_UPSTREAM_CALLS_PER_OPERATION refused with no call", async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels: agents(3, 95) } }, env: ONE_WALK });
    const pages = Array.from({ length: 10 }, (_, i) => `p${i}: endpoints(first: 1) { nodes { id } }`).join(
      ' ',
    );
    const refused = await subscribe(
      EVENTS(`id tunnelSession { node { ... on TunnelSession { ${pages} } } }`),
    );
    await until(() => refused.ended !== undefined, 'the refusal');
    const error = refused.results[0]?.errors?.[0];
    expect(error?.extensions?.code).toBe('OPERATION_TOO_EXPENSIVE');
    // The session's join and its 10 pages, for a single event.
    expect(error?.extensions?.upstreamCalls).toEqual({ predicted: 11, limit: 10 });
    expect(stack.sandbox.calls()).toBe(0);

    const plain = await subscribe(EVENTS('id'));
    await plain.received(3);
    plain.close();
    await until(
      () => stack.lines().filter((l) => l.operationType === 'subscription').length === 2,
      'two lines',
    );
    const lines = stack.lines().filter((l) => l.operationType === 'subscription');
    expect(lines.map((l) => l.upstream)).toEqual([
      expect.objectContaining({ predicted: 11, made: 0 }),
      expect.objectContaining({ predicted: 0, made: 0 }),
    ]);
  });

  it('a second subscriber of the same subscription and observation reads its joins, pages included, without a call', async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels: agents(3, 97) } }, env: ONE_WALK });
    const query = EVENTS(
      'id tunnelSession { node { ... on TunnelSession { endpoints(first: 1) { nodes { id } } } } }',
    );
    const first = await subscribe(query);
    await first.received(3);
    // One event at a time (a page each is no batch): each session's list and its endpoints' page.
    expect([stack.sandbox.calls('listTunnelSessions'), stack.sandbox.calls('listEndpoints')]).toEqual([3, 3]);
    const second = await subscribe(query);
    await second.received(3);
    expect(second.results.map((r) => r.data)).toEqual(first.results.map((r) => r.data));
    expect([stack.sandbox.calls('listTunnelSessions'), stack.sandbox.calls('listEndpoints')]).toEqual([3, 3]);
    const lines = () => stack.lines().filter((l) => l.operationType === 'subscription');
    first.close();
    await until(() => lines().length === 1, 'the first line');
    second.close();
    await until(() => lines().length === 2, 'the second line');
    expect(lines().map((l) => l.upstream)).toEqual([
      // The observation's lookups are the first one's: its line counts the second's 3 pages as cached.
      expect.objectContaining({ predicted: 10, made: 6, cached: 3 }),
      expect.objectContaining({ predicted: 10, made: 0, calls: 0 }),
    ]);
  });

  it('no room in the live share: the subscription ends with RATE_LIMITED and the reason, and the clients keep theirs', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: agents(130, 93) } },
      // The live share: the walk's 2 pages and one join call.
      env: { ...ONE_WALK, LIVE_POLL_BUDGET_PER_MIN: '3', UPSTREAM_RETRIES: '0' },
    });
    const s = await subscribe(SESSIONS_JOINED);
    await until(() => s.ended !== undefined, 'the end of the stream');
    // The first 100 events joined by the share's last call; the rest refused, the stream ended.
    expect(s.results).toHaveLength(101);
    for (const result of s.results.slice(0, 100)) expect(result.errors).toBeUndefined();
    const last = s.results[100]?.errors?.[0];
    expect(last?.extensions?.code).toBe('RATE_LIMITED');
    expect(last?.message).toMatch(/live share .*LIVE_POLL_BUDGET_PER_MIN/);
    expect(last?.extensions?.retryAfter).toEqual(expect.any(Number));
    expect(stack.sandbox.calls('listTunnelSessions')).toBe(1);
    const refused = stack
      .of('budget')
      .filter((e) => e.route === 'listTunnelSessions' && e.outcome === 'refused');
    expect(refused.map((e) => e.kind)).toEqual(['poll']);

    const query = await stack.gql(ENDPOINTS_PAGE);
    expect(query.status).toBe(200);
    expect(query.upstreamCalls).toEqual({ predicted: 1, made: 1 });
    await until(() => subscriptionLine(stack) !== undefined, 'the subscription line');
    expect(subscriptionLine(stack)?.upstream).toMatchObject({ predicted: 10, made: 1 });
  });
});
