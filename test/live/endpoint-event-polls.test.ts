// Which lists the one poller of an account walks: /endpoints only while someone subscribes to
// endpointEvents, /tunnels only while someone subscribes to tunnelEvents (/tunnel_sessions for
// tunnelSessionEvents: tunnel-session-events.test.ts), each once a turn when several are wanted, from
// one poller and within the one LIVE_POLL_BUDGET_PER_MIN of the account.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { cloudSeeds, pollersStopped, walked, walks } from './endpoint-support';
import {
  ENDPOINT_EVENTS,
  EVENTS,
  KEY,
  metric,
  SESSION_EVENTS,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  until,
  wsClient,
  wsSubscribe,
} from './support';

/** Complete walks of each list, from one reading of the counter (nothing moves between the two). */
async function walksNow(stack: Stack): Promise<{ tunnels: number; endpoints: number; sessions: number }> {
  const values =
    (await stack.gateway.metrics.getSingleMetric('gateway_live_polls_total')?.get())?.values ?? [];
  const of = (list: string) =>
    values.find((v) => v.labels.list === list && v.labels.outcome === 'complete')?.value ?? 0;
  return { tunnels: of('tunnels'), endpoints: of('endpoints'), sessions: of('tunnel_sessions') };
}

describe('the lists an account poller walks', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  const clients: { dispose(): void | Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    for (const c of clients.splice(0)) await c.dispose();
    await stack.close();
  });

  const start = (env: Record<string, string> = {}) =>
    startLiveStack({
      accounts: {
        [KEY]: { tunnels: makeTunnels(3, { seed: 51, kind: 'agent' }), endpoints: cloudSeeds(2, 'p') },
      },
      env,
    });
  /** One subscriber of each transport to `query`. */
  const subscribe = async (query: string) => {
    const client = wsClient(stack.wsUrl, KEY);
    clients.push(client);
    const pair = [await sse(stack.url, KEY, {}, query), wsSubscribe(client, {}, query)];
    open.push(...pair);
    return pair;
  };
  const closeAll = async () => {
    for (const s of open.splice(0)) s.close();
    await pollersStopped(stack);
  };
  const polls = (list: string) => metric(stack.gateway, 'gateway_live_polls_total', { list });
  const upstreamCalls = () => metric(stack.gateway, 'gateway_live_poll_upstream_calls_total');

  it('only endpointEvents subscribers: /endpoints is walked, /tunnels never', async () => {
    stack = await start();
    await subscribe(ENDPOINT_EVENTS());
    await walked(stack, 'endpoints', 0, 3);
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
    await closeAll();
    const calls = stack.sandbox.calls('listEndpoints', KEY);
    expect(await walks(stack, 'endpoints')).toBe(calls);
    expect(await polls('endpoints')).toBe(calls);
    expect(await upstreamCalls()).toBe(calls);
    expect(await polls('tunnels')).toBe(0);
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
  });

  it('only tunnelEvents subscribers: /tunnels is walked, /endpoints never', async () => {
    stack = await start();
    await subscribe(EVENTS('id'));
    await walked(stack, 'tunnels', 0, 3);
    expect(stack.sandbox.calls('listEndpoints')).toBe(0);
    await closeAll();
    const calls = stack.sandbox.calls('listTunnels', KEY);
    expect(await walks(stack, 'tunnels')).toBe(calls);
    expect(await polls('tunnels')).toBe(calls);
    expect(await upstreamCalls()).toBe(calls);
    expect(await polls('endpoints')).toBe(0);
    expect(stack.sandbox.calls('listEndpoints')).toBe(0);
  });

  it('subscribers of both: one poller walks each list once a turn', async () => {
    stack = await start();
    await subscribe(EVENTS('id'));
    await subscribe(ENDPOINT_EVENTS());
    await walked(stack, 'endpoints', 0, 1);
    expect(stack.gateway.live.pollers()).toBe(1);
    expect(await metric(stack.gateway, 'gateway_live_pollers')).toBe(1);
    expect(await metric(stack.gateway, 'gateway_live_standby_pollers')).toBe(0);
    // Each turn walks /tunnels then /endpoints: the gap between the two counts moves by one at most.
    const before = await walksNow(stack);
    await walked(stack, 'tunnels', before.tunnels, 5);
    const after = await walksNow(stack);
    expect(after.endpoints - before.endpoints).toBeGreaterThanOrEqual(4);
    const gap = (w: typeof before) => w.tunnels - w.endpoints;
    expect(Math.abs(gap(after) - gap(before))).toBeLessThanOrEqual(1);
    expect(stack.gateway.live.pollers()).toBe(1);
    expect(await metric(stack.gateway, 'gateway_live_subscriptions', { list: 'tunnels' })).toBe(2);
    expect(await metric(stack.gateway, 'gateway_live_subscriptions', { list: 'endpoints' })).toBe(2);

    await closeAll();
    const tunnels = stack.sandbox.calls('listTunnels', KEY);
    const endpoints = stack.sandbox.calls('listEndpoints', KEY);
    expect(await walksNow(stack)).toEqual({ tunnels, endpoints, sessions: 0 });
    expect(await upstreamCalls()).toBe(tunnels + endpoints);
    expect(await polls('tunnels')).toBe(tunnels);
    expect(await polls('endpoints')).toBe(endpoints);
    expect(stack.sandbox.calls('listTunnelSessions')).toBe(0);
  });

  it('subscribers of all three: one poller walks /tunnels, /endpoints and /tunnel_sessions once a turn each', async () => {
    stack = await start();
    await subscribe(EVENTS('id'));
    await subscribe(ENDPOINT_EVENTS());
    await subscribe(SESSION_EVENTS());
    await walked(stack, 'tunnel_sessions', 0, 1);
    expect(stack.gateway.live.pollers()).toBe(1);
    expect(await metric(stack.gateway, 'gateway_live_pollers')).toBe(1);
    // Each turn walks the three lists in turn: the gaps between their counts move by one at most.
    const before = await walksNow(stack);
    await walked(stack, 'tunnels', before.tunnels, 5);
    const after = await walksNow(stack);
    expect(after.sessions - before.sessions).toBeGreaterThanOrEqual(4);
    for (const other of ['endpoints', 'sessions'] as const) {
      const gap = (w: typeof before) => w.tunnels - w[other];
      expect(Math.abs(gap(after) - gap(before))).toBeLessThanOrEqual(1);
    }
    expect(await metric(stack.gateway, 'gateway_live_subscriptions', { list: 'tunnel_sessions' })).toBe(2);

    await closeAll();
    const calls = {
      tunnels: stack.sandbox.calls('listTunnels', KEY),
      endpoints: stack.sandbox.calls('listEndpoints', KEY),
      sessions: stack.sandbox.calls('listTunnelSessions', KEY),
    };
    expect(await walksNow(stack)).toEqual(calls);
    expect(await upstreamCalls()).toBe(calls.tunnels + calls.endpoints + calls.sessions);
    expect(stack.sandbox.calls()).toBe(calls.tunnels + calls.endpoints + calls.sessions);
  });

  it('both lists share the one budget: calls in the window stop at LIVE_POLL_BUDGET_PER_MIN', async () => {
    // /tunnels is one page, /endpoints 13 (1 203 endpoints): one turn of both needs 14 calls.
    stack = await startLiveStack({
      accounts: {
        [KEY]: { tunnels: makeTunnels(3, { seed: 52, kind: 'agent' }), endpoints: cloudSeeds(1200, 'b') },
      },
      env: { LIVE_POLL_INTERVAL_MS: '100', LIVE_POLL_BUDGET_PER_MIN: '12', UPSTREAM_RETRIES: '0' },
    });
    await subscribe(EVENTS('id'));
    // The first turn walks /tunnels alone (one call); the next, 5 s later (60 s × 1 / 12), both.
    await walked(stack, 'tunnels', 0, 1);
    await subscribe(ENDPOINT_EVENTS());
    const total = () => stack.sandbox.calls('listTunnels', KEY) + stack.sandbox.calls('listEndpoints', KEY);
    await until(() => total() >= 12, 'twelve calls', 30_000);
    // Ten intervals more: the walk of /endpoints would go on if /tunnels' calls were not counted.
    await new Promise((resolve) => setTimeout(resolve, 10 * 100));
    expect(total()).toBe(12);
    expect(stack.sandbox.calls()).toBe(12);
    expect(await upstreamCalls()).toBe(12);
    expect(stack.sandbox.calls('listTunnels', KEY)).toBeGreaterThanOrEqual(2);
    expect(stack.sandbox.calls('listEndpoints', KEY)).toBeGreaterThanOrEqual(9);
    // The endpoints walk waits mid-walk for room: no complete walk, no partial one published.
    expect(await polls('endpoints')).toBe(0);
    expect(stack.gateway.live.pollers()).toBe(1);
    expect(await metric(stack.gateway, 'gateway_live_pollers')).toBe(1);
  });
});
