// Subscription.endpointEvents end to end: endpoints that appear, change and go at the stand-in arrive
// as ONLINE, UPDATED and OFFLINE with every field over SSE and graphql-ws, counted per list in the
// metrics; includeCurrent lists the account first; tenants never see each other's events (polled
// or written); no credential, no subscription. Which lists the poller walks, and its budget:
// endpoint-event-polls.test.ts; writes through the gateway: endpoint-event-writes.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { dataOf } from '../support/stack';
import {
  cloudSeeds,
  ENDPOINT_FIELDS,
  graphqlEndpoint,
  listed,
  POLICY,
  pollersStopped,
  walked,
  walks,
} from './endpoint-support';
import {
  ENDPOINT_EVENTS,
  KEY,
  metric,
  OTHER_KEY,
  RFC3339,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  until,
  wsClient,
  wsSubscribe,
} from './support';

const CREATE = `mutation($input: CreateCloudEndpointInput!) {
  createCloudEndpoint(input: $input) { __typename ... on CreateCloudEndpointPayload { endpoint { id } } }
}`;

describe('endpointEvents', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  const clients: { dispose(): void | Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    for (const c of clients.splice(0)) await c.dispose();
    await stack.close();
  });

  const wsOf = (key: string | null) => {
    const client = wsClient(stack.wsUrl, key);
    clients.push(client);
    return client;
  };

  it('ONLINE, UPDATED and OFFLINE (the endpoint as last seen) from the poll, over SSE and graphql-ws, counted per list', async () => {
    const tunnels = makeTunnels(2, { seed: 41, kind: 'agent' });
    const clouds = cloudSeeds(2, 'poll');
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels, endpoints: clouds } } });
    const viaSse = await sse(stack.url, KEY, {}, ENDPOINT_EVENTS(ENDPOINT_FIELDS));
    const viaWs = wsSubscribe(wsOf(KEY), {}, ENDPOINT_EVENTS(ENDPOINT_FIELDS));
    open.push(viaSse, viaWs);
    expect(viaSse.status).toBe(200);
    await until(() => stack.gateway.live.count(KEY) === 2, 'both subscriptions');
    // The first complete walk is the baseline: nothing changed yet, nothing is sent.
    await walked(stack, 'endpoints', 0, 2);
    expect(viaSse.results).toEqual([]);
    expect(viaWs.results).toEqual([]);

    const [cloud0, cloud1] = clouds as [(typeof clouds)[0], (typeof clouds)[0]];
    const agentId = stack.sandbox.listEndpoints(KEY).find((e) => e.tunnel?.id === tunnels[0]?.id)?.id ?? '';
    const expected: { kind: string; endpointId: string; endpoint: unknown }[] = [];
    // One change at a time, each seen by both subscribers before the next.
    const step = async (kind: string, change: () => string, asShown?: () => unknown) => {
      const lastSeen = asShown?.();
      const id = change();
      expected.push({ kind, endpointId: id, endpoint: lastSeen ?? graphqlEndpoint(listed(stack, KEY, id)) });
      for (const s of [viaSse, viaWs]) await s.received(expected.length);
    };
    await step('ONLINE', () => stack.sandbox.addEndpoint(KEY).id);
    await step('UPDATED', () => stack.sandbox.touchEndpoint(KEY, cloud0.id)?.id ?? '');
    await step(
      'OFFLINE',
      () => (stack.sandbox.removeEndpoint(KEY, cloud1.id) ? cloud1.id : ''),
      () => graphqlEndpoint(listed(stack, KEY, cloud1.id)),
    );
    // An agent endpoint goes with its tunnel.
    await step(
      'OFFLINE',
      () => (stack.sandbox.removeTunnel(KEY, tunnels[0]?.id ?? '') ? agentId : ''),
      () => graphqlEndpoint(listed(stack, KEY, agentId)),
    );
    for (const s of [viaSse, viaWs]) {
      expect(s.results.map((r) => r.errors)).toEqual(expected.map(() => undefined));
      expect(s.results.map((r) => r.data?.endpointEvents)).toEqual(
        expected.map((e) => ({ ...e, observedAt: expect.stringMatching(RFC3339) })),
      );
      expect(s.ended).toBeUndefined();
    }
    expect(viaSse.results).toEqual(viaWs.results);
    const sent = (labels: Record<string, string>) =>
      metric(stack.gateway, 'gateway_live_events_sent_total', labels);
    expect(await sent({ list: 'endpoints', kind: 'ONLINE' })).toBe(2);
    expect(await sent({ list: 'endpoints', kind: 'UPDATED' })).toBe(2);
    expect(await sent({ list: 'endpoints', kind: 'OFFLINE' })).toBe(4);
    expect(await sent({ list: 'tunnels' })).toBe(0);
    expect(await metric(stack.gateway, 'gateway_live_subscriptions', { list: 'endpoints' })).toBe(2);

    viaSse.close();
    viaWs.close();
    await pollersStopped(stack);
    // Every call was a walk of /endpoints (one page each), every walk complete; /tunnels never.
    const calls = stack.sandbox.calls('listEndpoints', KEY);
    expect(calls).toBeGreaterThanOrEqual(6);
    expect(await walks(stack, 'endpoints')).toBe(calls);
    expect(await metric(stack.gateway, 'gateway_live_polls_total', { list: 'endpoints' })).toBe(calls);
    expect(await metric(stack.gateway, 'gateway_live_polls_total', { list: 'tunnels' })).toBe(0);
    expect(await metric(stack.gateway, 'gateway_live_poll_upstream_calls_total')).toBe(calls);
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
    expect(stack.sandbox.calls()).toBe(calls);
  });

  it('includeCurrent on 210 endpoints (3 pages): each one ONLINE once, newest first, then the changes', async () => {
    const clouds = cloudSeeds(60, 'current');
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(150, { seed: 42, kind: 'agent' }), endpoints: clouds } },
    });
    const all = stack.sandbox.listEndpoints(KEY).map((e) => `ONLINE:${e.id}`);
    expect(all).toHaveLength(210);
    const first = await sse(stack.url, KEY, { includeCurrent: true }, ENDPOINT_EVENTS());
    open.push(first);
    await first.received(210);
    expect(first.seen()).toEqual(all);
    // A later subscriber starts from the poller's snapshot.
    const second = wsSubscribe(wsOf(KEY), { includeCurrent: true }, ENDPOINT_EVENTS());
    open.push(second);
    await second.received(210);
    expect(second.seen()).toEqual(all);

    const added = stack.sandbox.addEndpoint(KEY);
    const gone = clouds[30]?.id ?? '';
    stack.sandbox.removeEndpoint(KEY, gone);
    for (const s of [first, second]) {
      await s.received(212);
      // In one walk or two: a walk is not atomic, so either may be observed first.
      expect(s.seen().slice(210).sort()).toEqual([`OFFLINE:${gone}`, `ONLINE:${added.id}`].sort());
      expect(new Set(s.seen()).size).toBe(212);
    }
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
  });

  it("tenants: one account's subscribers never see another's events, polled or written through the gateway", async () => {
    stack = await startLiveStack({
      accounts: {
        [KEY]: { endpoints: cloudSeeds(2, 'mine') },
        [OTHER_KEY]: { endpoints: cloudSeeds(2, 'theirs') },
      },
    });
    const me = await sse(stack.url, KEY, {}, ENDPOINT_EVENTS());
    const them = wsSubscribe(wsOf(OTHER_KEY), {}, ENDPOINT_EVENTS());
    open.push(me, them);
    // Each poller's baseline is done once it has started its second walk.
    await until(() => stack.sandbox.calls('listEndpoints', KEY) >= 2, "my poller's baseline");
    await until(() => stack.sandbox.calls('listEndpoints', OTHER_KEY) >= 2, "their poller's baseline");
    expect(stack.gateway.live.pollers()).toBe(2);

    const polled = stack.sandbox.addEndpoint(KEY).id;
    await me.received(1);
    const { body } = await stack.gql(CREATE, {
      input: { url: 'https://mine.example.com', trafficPolicy: POLICY },
    });
    const written = dataOf<{ endpoint: { id: string } }>(body, 'createCloudEndpoint').endpoint.id;
    await me.received(2);
    // Published after all of mine: had any of mine reached them, it would be there first.
    const theirs = stack.sandbox.addEndpoint(OTHER_KEY).id;
    await them.received(1);
    const w = await walks(stack, 'endpoints');
    await walked(stack, 'endpoints', w, 4);
    expect(me.seen()).toEqual([`ONLINE:${polled}`, `ONLINE:${written}`]);
    expect(them.seen()).toEqual([`ONLINE:${theirs}`]);
  });

  it('without a credential: UNAUTHENTICATED on SSE and graphql-ws, and no upstream call', async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { endpoints: cloudSeeds(2, 'anon') } } });
    const viaSse = await sse(stack.url, null, {}, ENDPOINT_EVENTS());
    const viaWs = wsSubscribe(wsOf(null), {}, ENDPOINT_EVENTS());
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
