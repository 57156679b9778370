// Redis goes away under two replicas with subscribers: each replica polls for its own subscribers
// (its lease, snapshot and fan-out fall back to the process), streams stay open and keep receiving
// events; when Redis returns the replicas go back to one poller for the cluster (for a moment after
// a reconnection two may poll, or the one about to stop: the test waits for the lease to settle).
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { EVENTS, KEY, type Subscriber, sse, until, wsClient, wsSubscribe } from '../live/support';
import { bundleMain } from '../operability/process';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { polling, type Replica, settledPoller, startReplica } from './replicas';

describe.runIf(redisTestsRun)('live events while Redis is down', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let replicas: Replica[] = [];
  let remove = () => {};
  const clients: Client[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({
      rateLimit: false,
      accounts: { [KEY]: { tunnels: makeTunnels(2, { seed: 73 }) } },
    });
    const bundle = await bundleMain();
    remove = bundle.remove;
    replicas = await Promise.all(
      ['a', 'b'].map((name) =>
        startReplica(bundle.main, name, { sandbox, redisUrl: redis.url, keyPrefix: 'ngw:' }),
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all(replicas.map((r) => r.process.stop()));
    await sandbox?.close();
    await redis?.stop();
    remove();
  });

  /** Waits until each of `among` has made `n` more complete walks. */
  const walks = async (among: readonly Replica[], n: number) => {
    const complete = (r: Replica) => r.metric('gateway_live_polls_total', { outcome: 'complete' });
    const before = await Promise.all(among.map(complete));
    for (const [i, r] of among.entries()) {
      await until(async () => (await complete(r)) >= (before[i] ?? 0) + n, `${n} walks on ${r.name}`, 20_000);
    }
  };

  it('each replica polls for its own subscribers during the outage, and one polls again once Redis is back', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const client = wsClient(b.wsUrl, KEY);
    clients.push(client);
    const subscribers: Subscriber[] = [
      await sse(a.url, KEY, { includeCurrent: true }, EVENTS('id')),
      wsSubscribe(client, { includeCurrent: true }, EVENTS('id')),
    ];
    const expected = (sandbox.account(KEY).tunnels ?? []).map((t) => `ONLINE:${t.id}`);
    for (const s of subscribers) await s.received(expected.length);
    await until(async () => (await polling(replicas)).length === 1, 'one replica to poll');

    await redis.stop();
    await until(
      async () => (await polling(replicas)).length === 2,
      'both replicas to poll on their own',
      20_000,
    );
    await walks(replicas, 2);
    const added = sandbox.addTunnel(KEY).id;
    expected.push(`ONLINE:${added}`);
    for (const s of subscribers) await s.received(expected.length);
    await walks(replicas, 3);
    for (const s of subscribers) {
      expect(s.seen()).toEqual(expected);
      expect(s.ended).toBeUndefined();
    }

    await redis.restart();
    const holder = await settledPoller(replicas);
    const gone = (sandbox.account(KEY).tunnels ?? [])[0]?.id ?? '';
    sandbox.removeTunnel(KEY, gone);
    expected.push(`OFFLINE:${gone}`);
    for (const s of subscribers) await s.received(expected.length);
    await walks(
      replicas.filter((r) => r.name === holder),
      3,
    );
    for (const s of subscribers) {
      expect(s.seen()).toEqual(expected);
      expect(s.ended).toBeUndefined();
    }
    expect(await polling(replicas)).toEqual([holder]);
    // Each wait above may take its own 20 s on a loaded machine.
  }, 90_000);
});
