// Who may subscribe and to what: credentials as for queries on both transports, no upstream call
// without one, a refused key ends its streams, tenants never see each other's events, and the
// subscription limits answer RATE_LIMITED.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import * as socket from '../support/websocket';
import {
  EVENTS,
  KEY,
  OTHER_KEY,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  until,
  wsClient,
  wsSubscribe,
} from './support';

const TOKEN = 'reader-token-0123456789';

describe('tunnelEvents access', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  const clients: { dispose(): void | Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    for (const c of clients.splice(0)) await c.dispose();
    await stack.close();
  });

  it('without a credential: UNAUTHENTICATED on SSE and graphql-ws, and no upstream call', async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels: makeTunnels(2) } } });
    const viaSse = await sse(stack.url, null);
    await viaSse.received(1);
    expect(viaSse.results[0]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const client = wsClient(stack.wsUrl, null);
    clients.push(client);
    const viaWs = wsSubscribe(client);
    await viaWs.received(1);
    expect(viaWs.results[0]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(stack.sandbox.calls()).toBe(0);
    expect(stack.gateway.live.count()).toBe(0);
  });

  it('a malformed Authorization or an unknown gateway token is refused on graphql-ws too', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(2) } },
      env: { NGROK_API_KEY: KEY, GATEWAY_TOKENS: `${TOKEN}:read` },
    });
    // In connection_init: the socket is closed (4401, not retried) before it is acknowledged.
    const client = socket.wsClient(stack.wsUrl, { key: 'not-a-known-token-0000' });
    clients.push(client);
    const refused = await socket.run(client, EVENTS());
    expect(refused.results).toEqual([]);
    expect(client.closes).toEqual([4401]);
    // On the upgrade: the HTTP answer an HTTP request gets (test/security/websocket-guards.test.ts).
    const upgrade = await socket.upgrade(stack.wsUrl, { authorization: 'Bearer not-a-known-token-0000' });
    expect(upgrade.status).toBe(401);
    expect(stack.sandbox.calls()).toBe(0);
    expect(stack.gateway.live.count()).toBe(0);
  });

  it('server-held key mode: a read-only gateway token may subscribe, by header on the upgrade or in connectionParams', async () => {
    const tunnels = makeTunnels(2);
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels } },
      env: { NGROK_API_KEY: KEY, GATEWAY_TOKENS: `${TOKEN}:read` },
    });
    const byParams = wsClient(stack.wsUrl, TOKEN);
    const byHeader = wsClient(stack.wsUrl, null, { authorization: `Bearer ${TOKEN}` });
    clients.push(byParams, byHeader);
    const viaSse = await sse(stack.url, TOKEN, { includeCurrent: true }, EVENTS('id'));
    const a = wsSubscribe(byParams, { includeCurrent: true }, EVENTS('id'));
    const b = wsSubscribe(byHeader, { includeCurrent: true }, EVENTS('id'));
    open.push(viaSse, a, b);
    const expected = tunnels.map((t) => `ONLINE:${t.id}`);
    for (const s of [viaSse, a, b]) {
      await s.received(2);
      expect(s.seen()).toEqual(expected);
    }
  });

  for (const transport of ['SSE', 'graphql-ws'] as const) {
    it(`${transport}: subscribers of one account never see another's events`, async () => {
      const mine = makeTunnels(3, { seed: 31 });
      const theirs = makeTunnels(3, { seed: 32 });
      stack = await startLiveStack({
        accounts: { [KEY]: { tunnels: mine }, [OTHER_KEY]: { tunnels: theirs } },
      });
      const subscribe = async (key: string) => {
        if (transport === 'SSE') return sse(stack.url, key, { includeCurrent: true }, EVENTS('id'));
        const client = wsClient(stack.wsUrl, key);
        clients.push(client);
        return wsSubscribe(client, { includeCurrent: true }, EVENTS('id'));
      };
      const me = await subscribe(KEY);
      const them = await subscribe(OTHER_KEY);
      open.push(me, them);
      await me.received(3);
      await them.received(3);
      const added = stack.sandbox.addTunnel(OTHER_KEY);
      stack.sandbox.removeTunnel(KEY, mine[0]?.id ?? '');
      await them.received(4);
      await me.received(4);
      expect(me.seen()).toEqual([...mine.map((t) => `ONLINE:${t.id}`), `OFFLINE:${mine[0]?.id}`]);
      expect(them.seen()).toEqual([...theirs.map((t) => `ONLINE:${t.id}`), `ONLINE:${added.id}`]);
      expect(stack.gateway.live.pollers()).toBe(2);
    });
  }

  it('a key the upstream refuses ends its streams with UNAUTHENTICATED and stops its poller', async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels: makeTunnels(2) } } });
    const bogus = 'refused-key-0123456789';
    const viaSse = await sse(stack.url, bogus, {}, EVENTS('id'));
    const client = wsClient(stack.wsUrl, bogus);
    clients.push(client);
    const viaWs = wsSubscribe(client, {}, EVENTS('id'));
    for (const s of [viaSse, viaWs]) {
      await until(() => s.ended !== undefined, 'the stream to end');
      expect(s.results).toHaveLength(1);
      expect(s.results[0]?.data).toBeNull();
      // The first refusal carries the upstream's 403; a stream that starts later meets the gateway's
      // memory of it (REFUSED_CREDENTIAL_TTL_MS), the same error without a call.
      expect(s.results[0]?.errors?.[0]).toMatchObject({
        message: 'The ngrok API refused the credential.',
        extensions: { code: 'UNAUTHENTICATED' },
      });
      expect([undefined, 403]).toContain(
        (s.results[0]?.errors?.[0]?.extensions?.upstream as { status?: number } | undefined)?.status,
      );
      expect(s.ended).toBe('complete');
    }
    await until(() => stack.gateway.live.pollers() === 0, 'the poller to stop');
    const calls = stack.sandbox.calls('listTunnels');
    // At most one walk per subscriber that started a poller: the refusal is not polled again.
    expect(calls).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 5 * 200));
    expect(stack.sandbox.calls('listTunnels')).toBe(calls);
    expect(stack.text()).not.toContain(bogus);
  });

  it('LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL and LIVE_MAX_SUBSCRIPTIONS: beyond them RATE_LIMITED, others unaffected', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(1) }, [OTHER_KEY]: { tunnels: makeTunnels(1, { seed: 5 }) } },
      env: { LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: '2', LIVE_MAX_SUBSCRIPTIONS: '3' },
    });
    open.push(await sse(stack.url, KEY), await sse(stack.url, KEY));
    await until(() => stack.gateway.live.count(KEY) === 2, 'two subscriptions');
    const third = await sse(stack.url, KEY);
    await third.received(1);
    expect(third.results[0]?.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(third.results[0]?.errors?.[0]?.message).toContain('At most 2 subscriptions per credential');
    open.push(await sse(stack.url, OTHER_KEY));
    await until(() => stack.gateway.live.count() === 3, 'three subscriptions');
    const client = wsClient(stack.wsUrl, OTHER_KEY);
    clients.push(client);
    const overTotal = wsSubscribe(client);
    await overTotal.received(1);
    expect(overTotal.results[0]?.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    // A subscriber that leaves frees its place.
    open[0]?.close();
    await until(() => stack.gateway.live.count() === 2, 'a place to free');
    const again = await sse(stack.url, KEY, { includeCurrent: true }, EVENTS('id'));
    open.push(again);
    await again.received(1);
    expect(again.results[0]?.errors).toBeUndefined();
  });

  it('PERSISTED_OPERATIONS_ONLY holds on graphql-ws: a raw document is refused, a persisted id runs', async () => {
    const manifest = join(mkdtempSync(join(tmpdir(), 'live-')), 'persisted.json');
    writeFileSync(
      manifest,
      JSON.stringify({ events1: 'subscription Live { tunnelEvents(includeCurrent: true) { tunnelId } }' }),
    );
    const tunnels = makeTunnels(1, { seed: 33 });
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels } },
      env: { PERSISTED_OPERATIONS_FILE: manifest, PERSISTED_OPERATIONS_ONLY: 'true' },
    });
    const client = wsClient(stack.wsUrl, KEY);
    clients.push(client);
    const raw = wsSubscribe(client, {}, EVENTS('id'));
    await raw.received(1);
    expect(raw.results[0]?.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    const results: unknown[] = [];
    const dispose = client.subscribe(
      { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: 'events1' } } },
      { next: (r) => results.push(r), error: () => {}, complete: () => {} },
    );
    await until(() => results.length === 1, 'the persisted subscription');
    expect(results).toEqual([{ data: { tunnelEvents: { tunnelId: tunnels[0]?.id } } }]);
    dispose();
  });
});
