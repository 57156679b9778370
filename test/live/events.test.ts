// Subscription.tunnelEvents end to end: tunnels that come and go at the stand-in arrive as ONLINE and
// OFFLINE events with every field, over SSE and graphql-ws; includeCurrent lists a large account
// first; many subscribers of one account share one poller.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import {
  EVENTS,
  graphqlTunnel,
  KEY,
  metric,
  RFC3339,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  TUNNEL_FIELDS,
  until,
  wsClient,
  wsSubscribe,
} from './support';

describe('tunnelEvents', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
  });

  it('sends ONLINE when a tunnel appears and OFFLINE with the tunnel as last seen, over SSE and graphql-ws', async () => {
    const tunnels = makeTunnels(5, { seed: 7, kind: 'mix' });
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } } });
    const viaSse = await sse(stack.url, KEY, {}, EVENTS(TUNNEL_FIELDS));
    const client = wsClient(stack.wsUrl, KEY);
    const viaWs = wsSubscribe(client, {}, EVENTS(TUNNEL_FIELDS));
    open.push(viaSse, viaWs);
    expect(viaSse.status).toBe(200);
    // The first complete walk is the baseline: nothing changed yet, nothing is sent.
    await until(
      async () => (await metric(stack.gateway, 'gateway_live_polls_total')) >= 2,
      'two polls',
      15_000,
    );
    expect(viaSse.results).toEqual([]);
    expect(viaWs.results).toEqual([]);

    const added = stack.sandbox.addTunnel(KEY);
    const gone = tunnels[2];
    if (!gone) throw new Error('fixture');
    await viaSse.received(1);
    await viaWs.received(1);
    stack.sandbox.removeTunnel(KEY, gone.id);
    const base = stack.sandbox.url;
    for (const subscriber of [viaSse, viaWs]) {
      const [online, offline] = await subscriber.received(2);
      expect(online?.errors).toBeUndefined();
      expect(online?.data?.tunnelEvents).toEqual({
        kind: 'ONLINE',
        tunnelId: added.id,
        observedAt: expect.stringMatching(RFC3339),
        tunnel: graphqlTunnel(added, base),
      });
      expect(offline?.data?.tunnelEvents).toEqual({
        kind: 'OFFLINE',
        tunnelId: gone.id,
        observedAt: expect.stringMatching(RFC3339),
        tunnel: graphqlTunnel(gone, base),
      });
      expect(subscriber.ended).toBeUndefined();
    }
    expect(viaSse.results).toEqual(viaWs.results);
    await client.dispose();
  });

  it('includeCurrent on an account of 250 tunnels (3 pages): each one ONLINE once, newest first, then the changes', async () => {
    const tunnels = makeTunnels(250, { seed: 11 });
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } } });
    const first = await sse(stack.url, KEY, { includeCurrent: true }, EVENTS('id'));
    open.push(first);
    await first.received(250);
    expect(first.seen()).toEqual(tunnels.map((t) => `ONLINE:${t.id}`));
    // A later subscriber starts from the poller's snapshot: no new walk needed for its list.
    const calls = stack.sandbox.calls('listTunnels');
    const client = wsClient(stack.wsUrl, KEY);
    const second = wsSubscribe(client, { includeCurrent: true }, EVENTS('id'));
    open.push(second);
    await second.received(250);
    expect(second.seen()).toEqual(first.seen());
    expect(stack.sandbox.calls('listTunnels') - calls).toBeLessThanOrEqual(3 * 3);

    const added = stack.sandbox.addTunnel(KEY);
    const gone = tunnels[120];
    if (!gone) throw new Error('fixture');
    stack.sandbox.removeTunnel(KEY, gone.id);
    for (const s of [first, second]) {
      await s.received(252);
      // In one walk or two: a walk is not atomic, so either may be observed first.
      expect(s.seen().slice(250).sort()).toEqual([`OFFLINE:${gone.id}`, `ONLINE:${added.id}`]);
      expect(new Set(s.seen()).size).toBe(s.seen().length);
    }
    await client.dispose();
  });

  it('includeCurrent while changes keep coming: the list from the stream alone equals the account', async () => {
    const tunnels = makeTunnels(150, { seed: 12 });
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } }, env: { LIVE_POLL_INTERVAL_MS: '100' } });
    const stop = stack.sandbox.churn(KEY, { everyMs: 60, seed: 3 });
    const late: Subscriber[] = [];
    for (let i = 0; i < 5; i += 1) {
      const s = await sse(stack.url, KEY, { includeCurrent: true }, EVENTS('id'));
      open.push(s);
      late.push(s);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    stop();
    // Once quiet, every subscriber's list, built from its events alone, is the account's list.
    const expected = () => (stack.sandbox.account(KEY).tunnels ?? []).map((t) => t.id).sort();
    for (const s of late) {
      await until(() => listOf(s).join() === expected().join(), 'the stream to match the account', 15_000);
      expect(s.results.every((r) => r.errors === undefined)).toBe(true);
    }
  });

  it('20 subscribers cost the upstream calls of one', async () => {
    const tunnels = makeTunnels(250, { seed: 13 });
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } }, env: { LIVE_POLL_INTERVAL_MS: '300' } });
    const subscribers: Subscriber[] = [];
    for (let i = 0; i < 20; i += 1) subscribers.push(await sse(stack.url, KEY, {}, EVENTS('id')));
    open.push(...subscribers);
    await until(() => stack.gateway.live.count(KEY) === 20, '20 subscriptions');
    await until(async () => (await metric(stack.gateway, 'gateway_live_polls_total')) >= 1, 'a baseline');
    const added = stack.sandbox.addTunnel(KEY);
    for (const s of subscribers) {
      await s.received(1);
      expect(s.seen()).toEqual([`ONLINE:${added.id}`]);
    }
    // Every call was one poller's: three pages per walk, whatever the number of subscribers.
    const polls = await metric(stack.gateway, 'gateway_live_polls_total', { outcome: 'complete' });
    const calls = stack.sandbox.calls('listTunnels', KEY);
    expect(stack.gateway.live.pollers()).toBe(1);
    expect(calls).toBe(await metric(stack.gateway, 'gateway_live_poll_upstream_calls_total'));
    // Walks in flight when counted have made 1..3 of their calls.
    expect(calls).toBeGreaterThanOrEqual(3 * polls);
    expect(calls).toBeLessThanOrEqual(3 * polls + 3);
  });
});

/** The tunnel ids a subscriber's events add up to; an event that does not fit the list so far is listed as such. */
function listOf(s: Subscriber): string[] {
  const ids = new Set<string>();
  const misfits: string[] = [];
  for (const r of s.results) {
    const e = r.data?.tunnelEvents;
    if (!e) continue;
    // ONLINE for a listed tunnel, or OFFLINE for an unlisted one: an event lost or sent twice.
    if ((e.kind === 'ONLINE') === ids.has(e.tunnelId)) misfits.push(`misfit ${e.kind}:${e.tunnelId}`);
    if (e.kind === 'ONLINE') ids.add(e.tunnelId);
    else ids.delete(e.tunnelId);
  }
  return [...[...ids].sort(), ...misfits];
}
