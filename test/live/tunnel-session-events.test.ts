// Subscription.tunnelSessionEvents end to end: agents that connect and go away at the stand-in arrive
// as ONLINE and OFFLINE with every field over SSE and graphql-ws, from a walk of /tunnel_sessions
// alone (no /tunnels, no /endpoints call); includeCurrent lists the online agents first; a STOP or a
// RESTART sent through the gateway is announced by the next complete walk, once, and never at
// command time; tenants never see each other's agents; no credential, no subscription.
import { afterEach, describe, expect, it } from 'vitest';
import { joinedAccount, makeTunnels } from '../../src/sandbox';
import { pollersStopped, walked, walks } from './endpoint-support';
import { command, graphqlSession, SESSION_FIELDS, sessionsOf } from './session-support';
import {
  KEY,
  metric,
  OTHER_KEY,
  RFC3339,
  SESSION_EVENTS,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  until,
  wsClient,
  wsSubscribe,
} from './support';

describe('tunnelSessionEvents', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  const clients: { dispose(): void | Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    for (const c of clients.splice(0)) await c.dispose();
    await stack.close();
  });

  /** A subscriber over SSE and one over graphql-ws, both open before this returns. */
  const pair = async (key: string, variables: Record<string, unknown>, query = SESSION_EVENTS()) => {
    const had = stack.gateway.live.count(key);
    const client = wsClient(stack.wsUrl, key);
    clients.push(client);
    const both = [await sse(stack.url, key, variables, query), wsSubscribe(client, variables, query)];
    open.push(...both);
    await until(() => stack.gateway.live.count(key) === had + 2, 'the subscriptions');
    return both as [Subscriber, Subscriber];
  };
  const sessionWalks = () => walks(stack, 'tunnel_sessions');

  it('ONLINE and OFFLINE (the session as last seen) from walks of /tunnel_sessions alone, over SSE and graphql-ws', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(3, { seed: 61, kind: 'agent' }) } },
    });
    const [viaSse, viaWs] = await pair(KEY, {}, SESSION_EVENTS(SESSION_FIELDS));
    // The first complete walk is the baseline: nothing changed yet, nothing is sent.
    await walked(stack, 'tunnel_sessions', 0, 2);
    expect(viaSse.results).toEqual([]);
    expect(viaWs.results).toEqual([]);

    // A new agent connects (a tunnel on a session not listed yet brings it).
    const added = stack.sandbox.addTunnel(KEY).tunnel_session.id;
    const online = sessionsOf(stack).find((s) => s.id === added);
    expect(online).toBeDefined();
    for (const s of [viaSse, viaWs]) await s.received(1);
    // An agent goes away: stopped through the gateway, announced by the poll as last seen.
    const gone = sessionsOf(stack).find((s) => s.id !== added) ?? {};
    await command(stack.url, String(gone.id), 'STOP');
    for (const s of [viaSse, viaWs]) await s.received(2);

    const expected = [
      { kind: 'ONLINE', tunnelSessionId: added, tunnelSession: graphqlSession(online ?? {}) },
      { kind: 'OFFLINE', tunnelSessionId: gone.id, tunnelSession: graphqlSession(gone) },
    ];
    for (const s of [viaSse, viaWs]) {
      expect(s.results.map((r) => r.errors)).toEqual([undefined, undefined]);
      expect(s.results.map((r) => r.data?.tunnelSessionEvents)).toEqual(
        expected.map((e) => ({ ...e, observedAt: expect.stringMatching(RFC3339) })),
      );
      expect(s.ended).toBeUndefined();
    }
    expect(viaSse.results).toEqual(viaWs.results);
    const sent = (labels: Record<string, string>) =>
      metric(stack.gateway, 'gateway_live_events_sent_total', labels);
    expect(await sent({ list: 'tunnel_sessions', kind: 'ONLINE' })).toBe(2);
    expect(await sent({ list: 'tunnel_sessions', kind: 'OFFLINE' })).toBe(2);
    expect(await metric(stack.gateway, 'gateway_live_subscriptions', { list: 'tunnel_sessions' })).toBe(2);

    viaSse.close();
    viaWs.close();
    await pollersStopped(stack);
    // Every poll call was a walk of /tunnel_sessions (one page each), every walk complete.
    const calls = stack.sandbox.calls('listTunnelSessions', KEY);
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(await sessionWalks()).toBe(calls);
    expect(await metric(stack.gateway, 'gateway_live_polls_total')).toBe(calls);
    expect(await metric(stack.gateway, 'gateway_live_poll_upstream_calls_total')).toBe(calls);
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
    expect(stack.sandbox.calls('listEndpoints')).toBe(0);
    expect(stack.sandbox.calls()).toBe(calls + 1);
  });

  it('includeCurrent on 130 agents (2 pages): each one ONLINE once, newest first, then the changes', async () => {
    stack = await startLiveStack({ accounts: { [KEY]: joinedAccount(130, { seed: 62 }) } });
    const all = sessionsOf(stack).map((s) => `ONLINE:${s.id}`);
    expect(all).toHaveLength(130);
    const first = await sse(stack.url, KEY, { includeCurrent: true }, SESSION_EVENTS());
    open.push(first);
    await first.received(130);
    expect(first.seen()).toEqual(all);
    // A later subscriber starts from the poller's snapshot.
    const [, second] = await pair(KEY, { includeCurrent: true });
    await second.received(130);
    expect(second.seen()).toEqual(all);

    const added = stack.sandbox.addTunnel(KEY).tunnel_session.id;
    for (const s of [first, second]) {
      await s.received(131);
      expect(s.seen().slice(130)).toEqual([`ONLINE:${added}`]);
    }
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
    expect(stack.sandbox.calls('listEndpoints')).toBe(0);
  });

  it('STOP through the gateway: OFFLINE at the next complete walk, once; RESTART: OFFLINE for the old id, ONLINE for the new', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: joinedAccount(4, { seed: 63 }) },
      // Failed walks back off from 2 × 100 ms: four of them take about 3 s.
      env: { UPSTREAM_RETRIES: '0', BREAKER_FAILURE_THRESHOLD: '0', LIVE_POLL_INTERVAL_MS: '100' },
    });
    const subscribers = await pair(KEY, {});
    await walked(stack, 'tunnel_sessions', 0, 2);
    const [stopped, restarted] = sessionsOf(stack).filter((s) => s.os !== 'windows');
    if (!stopped || !restarted) throw new Error('the fixture needs two agents that can restart');

    // Walks fail from here until after the command: no poll can see the agent go meanwhile.
    const failed = () =>
      metric(stack.gateway, 'gateway_live_polls_total', { list: 'tunnel_sessions', outcome: 'failed' });
    const faults = 4;
    const injectedAt = stack.sandbox.calls('listTunnelSessions', KEY);
    stack.sandbox.inject('listTunnelSessions', ...Array(faults).fill({ kind: 'status', status: 500 }));
    await until(async () => (await failed()) >= 1, 'a failed walk');
    await command(stack.url, String(stopped.id), 'STOP');
    // A walk whose one call went out after the command's answer fails too (one call a walk here).
    const next = stack.sandbox.calls('listTunnelSessions', KEY) + 1 - injectedAt;
    expect(next).toBeLessThanOrEqual(faults);
    await until(async () => (await failed()) >= next, 'a walk begun after the command to fail', 30_000);
    for (const s of subscribers) expect(s.results).toEqual([]);

    // The faults run out: the next complete walk sees the agent gone, and later walks say nothing more.
    for (const s of subscribers) await s.received(1, 30_000);
    await walked(stack, 'tunnel_sessions', await sessionWalks(), 2);
    for (const s of subscribers) expect(s.seen()).toEqual([`OFFLINE:${stopped.id}`]);
    expect(stack.sandbox.calls('stopTunnelSession', KEY)).toBe(1);

    // RESTART: the agent comes back under a new id, seen by one walk.
    const before = new Set(sessionsOf(stack).map((s) => s.id));
    await command(stack.url, String(restarted.id), 'RESTART');
    const back = sessionsOf(stack).find((s) => !before.has(s.id))?.id;
    expect(back).toMatch(/^ts_/);
    for (const s of subscribers) await s.received(3);
    await walked(stack, 'tunnel_sessions', await sessionWalks(), 2);
    for (const s of subscribers) {
      expect(s.seen()).toEqual([`OFFLINE:${stopped.id}`, `ONLINE:${back}`, `OFFLINE:${restarted.id}`]);
      expect(s.ended).toBeUndefined();
    }
    expect(subscribers[0].results).toEqual(subscribers[1].results);
  });

  it("tenants: one key's subscribers never see another account's agents", async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: joinedAccount(3, { seed: 64 }), [OTHER_KEY]: joinedAccount(3, { seed: 65 }) },
    });
    const mine = sessionsOf(stack, KEY).map((s) => `ONLINE:${s.id}`);
    const theirs = sessionsOf(stack, OTHER_KEY).map((s) => `ONLINE:${s.id}`);
    const me = await pair(KEY, { includeCurrent: true });
    const them = await pair(OTHER_KEY, { includeCurrent: true });
    for (const s of [...me, ...them]) await s.received(3);
    expect(stack.gateway.live.pollers()).toBe(2);

    const gone = String(sessionsOf(stack, KEY)[0]?.id);
    await command(stack.url, gone, 'STOP');
    for (const s of me) await s.received(4);
    // Published after all of mine: had any of mine reached them, it would be there first.
    const added = stack.sandbox.addTunnel(OTHER_KEY).tunnel_session.id;
    for (const s of them) await s.received(4);
    await walked(stack, 'tunnel_sessions', await sessionWalks(), 4);
    for (const s of me) expect(s.seen()).toEqual([...mine, `OFFLINE:${gone}`]);
    for (const s of them) expect(s.seen()).toEqual([...theirs, `ONLINE:${added}`]);
  });

  it('without a credential: UNAUTHENTICATED on SSE and graphql-ws, and no upstream call', async () => {
    stack = await startLiveStack({ accounts: { [KEY]: joinedAccount(2, { seed: 66 }) } });
    const client = wsClient(stack.wsUrl, null);
    clients.push(client);
    const viaSse = await sse(stack.url, null, { includeCurrent: true }, SESSION_EVENTS());
    const viaWs = wsSubscribe(client, { includeCurrent: true }, SESSION_EVENTS());
    open.push(viaSse, viaWs);
    for (const s of [viaSse, viaWs]) {
      await s.received(1);
      expect(s.results).toHaveLength(1);
      expect(s.results[0]?.data ?? null).toBeNull();
      expect(s.results[0]?.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    }
    expect(stack.sandbox.calls()).toBe(0);
    expect(stack.gateway.live.count()).toBe(0);
    expect(stack.gateway.live.pollers()).toBe(0);
  });
});
