// Three gateway replicas (separate processes) sharing one redis-server, in front of one stand-in:
// one of them polls the account for the whole cluster, and every subscriber on every replica (SSE
// and graphql-ws, with and without includeCurrent) receives each event exactly once, in order.
// Nothing in Redis (keys, values, pub/sub messages) carries the credential.
import type { Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { keyDigest } from '../../src/upstream';
import { EVENTS, KEY, type Subscriber, sse, until, wsClient, wsSubscribe } from '../live/support';
import { bundleMain } from '../operability/process';
import { redisContents } from '../support/redis-contents';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { polling, type Replica, startReplica } from './replicas';

const PREFIX = 'ngw:';
const DIGEST = keyDigest(KEY);

describe.runIf(redisTestsRun)('live events across three replicas', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let replicas: Replica[] = [];
  let remove = () => {};
  let admin: Redis;
  let monitor: Redis;
  const messages: string[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({
      rateLimit: false,
      accounts: { [KEY]: { tunnels: makeTunnels(3, { seed: 71 }) } },
    });
    const bundle = await bundleMain();
    remove = bundle.remove;
    replicas = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        startReplica(bundle.main, name, { sandbox, redisUrl: redis.url, keyPrefix: PREFIX }),
      ),
    );
    admin = new Redis(redis.url);
    // Every message published on any channel, as Redis carries it.
    monitor = new Redis(redis.url);
    monitor.on('pmessage', (_pattern: string, channel: string, message: string) =>
      messages.push(`${channel} ${message}`),
    );
    await monitor.psubscribe('*');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all(replicas.map((r) => r.process.stop()));
    admin?.disconnect();
    monitor?.disconnect();
    await sandbox?.close();
    await redis?.stop();
    remove();
  });

  it('one replica polls for the cluster; each event reaches every subscriber on every replica once, in order', async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const initial = (sandbox.account(KEY).tunnels ?? []).map((t) => `ONLINE:${t.id}`);
    const ws = (replica: Replica) => {
      const client = wsClient(replica.wsUrl, KEY);
      clients.push(client);
      return client;
    };
    const started = Date.now();
    // Without includeCurrent first; an includeCurrent one on the same replica then waits until Redis
    // confirmed the replica's subscription, which both share.
    const plain: Subscriber[] = [
      await sse(b.url, KEY, {}, EVENTS('id')),
      wsSubscribe(ws(c), {}, EVENTS('id')),
    ];
    await until(
      async () => (await b.metric('gateway_live_subscriptions')) === 1,
      'b to count its subscriber',
    );
    await until(
      async () => (await c.metric('gateway_live_subscriptions')) === 1,
      'c to count its subscriber',
    );
    const current: Subscriber[] = [
      await sse(a.url, KEY, { includeCurrent: true }, EVENTS('id')),
      wsSubscribe(ws(b), { includeCurrent: true }, EVENTS('id')),
      await sse(c.url, KEY, { includeCurrent: true }, EVENTS('id')),
    ];
    for (const s of current) await s.received(initial.length);
    for (const s of current) expect(s.seen()).toEqual(initial);

    await until(async () => (await polling(replicas)).length === 1, 'one replica to poll');
    const [holder] = await polling(replicas);
    const standby = await Promise.all(replicas.map((r) => r.metric('gateway_live_standby_pollers')));
    expect(standby).toEqual(replicas.map((r) => (r.name === holder ? 0 : 1)));
    const lease = await admin.get(`${PREFIX}lease:live-poll:${DIGEST}`);
    expect(lease).toMatch(/^[0-9a-f-]{36}$/);

    // Changes one step at a time; every subscriber must have each step before the next.
    const expected: string[] = [];
    const step = async (change: () => string[]) => {
      expected.push(...change());
      for (const s of plain) await s.received(expected.length);
      for (const s of current) await s.received(initial.length + expected.length);
      expect(await polling(replicas)).toEqual([holder]);
    };
    const tunnel0 = (sandbox.account(KEY).tunnels ?? [])[0]?.id ?? '';
    let added1 = '';
    await step(() => {
      added1 = sandbox.addTunnel(KEY).id;
      return [`ONLINE:${added1}`];
    });
    await step(() => {
      sandbox.removeTunnel(KEY, tunnel0);
      return [`OFFLINE:${tunnel0}`];
    });
    await step(() => {
      // Both in one walk: ONLINE first, then OFFLINE.
      const added2 = sandbox.addTunnel(KEY).id;
      sandbox.removeTunnel(KEY, added1);
      return [`ONLINE:${added2}`, `OFFLINE:${added1}`];
    });
    // Three more complete walks: nothing more (no replica sent anything twice).
    const holderReplica = replicas.find((r) => r.name === holder) as Replica;
    const walks = await holderReplica.metric('gateway_live_polls_total', { outcome: 'complete' });
    await until(
      async () =>
        (await holderReplica.metric('gateway_live_polls_total', { outcome: 'complete' })) >= walks + 3,
      'three more walks',
    );
    for (const s of plain) expect(s.seen()).toEqual(expected);
    for (const s of current) expect(s.seen()).toEqual([...initial, ...expected]);
    for (const s of [...plain, ...current]) expect(s.ended).toBeUndefined();

    for (const s of [...plain, ...current]) s.close();
    for (const r of replicas) {
      await until(
        async () =>
          (await r.metric('gateway_live_pollers')) + (await r.metric('gateway_live_standby_pollers')) === 0,
        `${r.name}'s poller to stop`,
      );
    }
    const elapsed = Date.now() - started;
    // Every walk was the holder's: the stand-in saw exactly its calls, none from the other two.
    const calls = sandbox.calls('listTunnels', KEY);
    const made = await Promise.all(replicas.map((r) => r.metric('gateway_live_poll_upstream_calls_total')));
    expect(made).toEqual(replicas.map((r) => (r.name === holder ? calls : 0)));
    // One walk (one page) per 200 ms interval at most, not one per replica.
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(Math.floor(elapsed / 200) + 2);
    // Released when it stopped.
    expect(await admin.get(`${PREFIX}lease:live-poll:${DIGEST}`)).toBeNull();
  });

  it('no Redis key, value or pub/sub message carries the credential', async () => {
    const { keys, texts: dump } = await redisContents(admin);
    expect(keys).toContain(`${PREFIX}live-snapshot:tunnels:${DIGEST}`);
    expect(dump.join('\n')).not.toContain(KEY);
    expect(dump.join('\n')).not.toContain('unexpected type');
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m.startsWith(`${PREFIX}events:tunnelEvents:${DIGEST} `)).toBe(true);
    expect(messages.join('\n')).not.toContain(KEY);
  });
});
