// The replica polling an account for the cluster goes away: killed (SIGKILL, its lease expires) or
// left by its last subscriber (it releases the lease after LIVE_IDLE_MS). A replica that still has
// subscribers takes over and diffs against the shared snapshot: no ONLINE again for tunnels the
// subscribers know, no OFFLINE missed for a tunnel removed while nobody polled.
import type { Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { keyDigest } from '../../src/upstream';
import { EVENTS, KEY, type Subscriber, sse, until, wsClient, wsSubscribe } from '../live/support';
import { bundleMain } from '../operability/process';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { polling, type Replica, startReplica } from './replicas';

const PREFIX = 'ngw-failover:';

describe.runIf(redisTestsRun)('failover of the live poller between replicas', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let replicas: Replica[] = [];
  let remove = () => {};
  const clients: Client[] = [];
  /** Each replica's subscribers. */
  const subscribers = new Map<string, Subscriber[]>();
  let initial: string[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({
      rateLimit: false,
      accounts: { [KEY]: { tunnels: makeTunnels(4, { seed: 72 }) } },
    });
    const bundle = await bundleMain();
    remove = bundle.remove;
    replicas = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        startReplica(bundle.main, name, { sandbox, redisUrl: redis.url, keyPrefix: PREFIX }),
      ),
    );
    initial = (sandbox.account(KEY).tunnels ?? []).map((t) => `ONLINE:${t.id}`);
    // On each replica one SSE and one graphql-ws subscriber, both from the current list on.
    for (const r of replicas) {
      const client = wsClient(r.wsUrl, KEY);
      clients.push(client);
      subscribers.set(r.name, [
        await sse(r.url, KEY, { includeCurrent: true }, EVENTS('id')),
        wsSubscribe(client, { includeCurrent: true }, EVENTS('id')),
      ]);
    }
    for (const list of subscribers.values()) for (const s of list) await s.received(initial.length);
  }, 60_000);

  afterAll(async () => {
    for (const list of subscribers.values()) for (const s of list) s.close();
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all(replicas.map((r) => r.process.stop()));
    await sandbox?.close();
    await redis?.stop();
    remove();
  });

  const holderOf = async (among: readonly Replica[]): Promise<Replica> => {
    await until(async () => (await polling(among)).length === 1, 'exactly one replica to poll', 20_000);
    const [name] = await polling(among);
    return among.find((r) => r.name === name) as Replica;
  };

  /** Waits until the replica has made `n` more complete walks (nothing more is on its way). */
  const walks = async (replica: Replica, n: number) => {
    const complete = () => replica.metric('gateway_live_polls_total', { outcome: 'complete' });
    const before = await complete();
    await until(async () => (await complete()) >= before + n, `${n} walks on ${replica.name}`, 20_000);
  };

  it('SIGKILL of the polling replica: another takes over; a removal meanwhile is one OFFLINE, nothing repeats', async () => {
    const holder = await holderOf(replicas);
    const survivors = replicas.filter((r) => r !== holder);
    holder.kill();
    await until(() => holder.process.exitCode() !== undefined, 'the holder to die');
    replicas = survivors;
    subscribers.delete(holder.name);

    // While nobody polls (the lease has not expired yet): one tunnel goes, one comes.
    const gone = (sandbox.account(KEY).tunnels ?? [])[1]?.id ?? '';
    sandbox.removeTunnel(KEY, gone);
    const added = sandbox.addTunnel(KEY).id;
    const expected = [...initial, `ONLINE:${added}`, `OFFLINE:${gone}`];
    const successor = await holderOf(survivors);
    for (const r of survivors)
      for (const s of subscribers.get(r.name) ?? []) await s.received(expected.length);
    await walks(successor, 3);
    for (const r of survivors) {
      for (const s of subscribers.get(r.name) ?? []) {
        expect(s.seen()).toEqual(expected);
        expect(s.ended).toBeUndefined();
      }
    }
    expect(await polling(survivors)).toEqual([successor.name]);
    initial = expected;
  });

  it("the polling replica's last subscriber leaves: after LIVE_IDLE_MS it hands over to a replica with subscribers", async () => {
    const holder = await holderOf(replicas);
    const other = replicas.find((r) => r !== holder) as Replica;
    for (const s of subscribers.get(holder.name) ?? []) s.close();
    subscribers.delete(holder.name);
    const known = sandbox.account(KEY).tunnels ?? [];
    await until(async () => (await polling(replicas)).includes(other.name), 'the other replica to take over');
    // Released, not expired: the former holder stopped, and stays stopped without subscribers.
    await until(async () => (await holder.metric('gateway_live_pollers')) === 0, 'the former holder to stop');
    expect(await holder.metric('gateway_live_standby_pollers')).toBe(0);
    sandbox.removeTunnel(KEY, known[0]?.id ?? '');
    const expected = [...initial, `OFFLINE:${known[0]?.id}`];
    for (const s of subscribers.get(other.name) ?? []) await s.received(expected.length);
    await walks(other, 3);
    for (const s of subscribers.get(other.name) ?? []) expect(s.seen()).toEqual(expected);
    expect(await polling(replicas)).toEqual([other.name]);
    initial = expected;
  });

  it('a holder whose lease another took (a stall past its TTL) stops at its next renewal; polling resumes once the lease is free', async () => {
    const admin = new Redis(redis.url);
    try {
      const lease = `${PREFIX}lease:live-poll:${keyDigest(KEY)}`;
      await holderOf(replicas);
      // What a replica sees when its lease expired and another replica took it meanwhile. Held long
      // enough (8 s) that a loaded machine still sees the moment nobody polls before it expires.
      await admin.set(lease, 'another-replica', 'PX', 8_000);
      await until(async () => (await polling(replicas)).length === 0, 'the holder to stop polling');
      const calls = sandbox.calls('listTunnels', KEY);
      const gone = (sandbox.account(KEY).tunnels ?? [])[0]?.id ?? '';
      sandbox.removeTunnel(KEY, gone);
      // Gone, or already taken again by a replica (on a loaded machine a replica may take it before a
      // check sees the key missing): either way the foreign holder's lease has expired.
      await until(async () => (await admin.get(lease)) !== 'another-replica', 'the foreign lease to expire');
      // Nobody polled while another held the lease (at most the call of a walk already under way).
      expect(sandbox.calls('listTunnels', KEY)).toBeLessThanOrEqual(calls + 1);
      const holder = await holderOf(replicas);
      const expected = [...initial, `OFFLINE:${gone}`];
      const open = [...subscribers.values()].flat();
      for (const s of open) await s.received(expected.length);
      await walks(holder, 3);
      for (const s of open) expect(s.seen()).toEqual(expected);
      initial = expected;
    } finally {
      admin.disconnect();
    }
  }, 60_000);
});
