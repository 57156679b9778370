// Live queries on two replicas of one Redis: each replica re-evaluates its live queries from the
// one shared observation (one poller for the cluster), and when the poller's replica is killed the
// other takes the lease and its live queries keep updating, exact.
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinedAccount, type Sandbox, startSandbox } from '../../src/sandbox';
import { type LiveClient, liveSse, liveWs } from '../live/live-query-support';
import { KEY, until, wsClient } from '../live/support';
import { bundleMain } from '../operability/process';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { polling, type Replica, startReplica } from './replicas';

const PREFIX = 'ngw-live-queries:';
const AGENTS = `query @live { tunnelSessions(first: 20) { nodes { id endpoints(first: 5) { nodes { url } } } } }`;
const TUNNELS = `query @live { tunnels(first: 20) { nodes { id publicUrl } } }`;

describe.runIf(redisTestsRun)('live queries across replicas', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let replicas: Replica[] = [];
  let remove = () => {};
  const clients: Client[] = [];
  const live = new Map<string, LiveClient[]>();

  beforeAll(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: joinedAccount(6, { seed: 81 }) } });
    const bundle = await bundleMain();
    remove = bundle.remove;
    replicas = await Promise.all(
      ['a', 'b'].map((name) =>
        startReplica(bundle.main, name, { sandbox, redisUrl: redis.url, keyPrefix: PREFIX }),
      ),
    );
    for (const r of replicas) {
      const client = wsClient(r.wsUrl, KEY);
      clients.push(client);
      live.set(r.name, [await liveSse(r.url, KEY, AGENTS), liveWs(client, TUNNELS)]);
    }
    for (const list of live.values()) for (const c of list) await c.received(1);
  }, 60_000);

  afterAll(async () => {
    for (const list of live.values()) for (const c of list) c.close();
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all(replicas.map((r) => r.process.stop()));
    await sandbox?.close();
    await redis?.stop();
    remove();
  });

  /** What a plain query answers now, through `replica`. */
  const fresh = async (replica: Replica, query: string) => {
    const response = await fetch(replica.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query: query.replace(' @live', '') }),
    });
    return ((await response.json()) as { data: unknown }).data;
  };

  /** Every live query on `among` equals a fresh answer of its query. */
  const exact = async (among: readonly Replica[]) => {
    for (const r of among) {
      const [agents, tunnels] = live.get(r.name) ?? [];
      for (const [client, query] of [
        [agents, AGENTS],
        [tunnels, TUNNELS],
      ] as const) {
        await until(
          async () => JSON.stringify(await client?.data()) === JSON.stringify(await fresh(r, query)),
          `${r.name}'s live query to be exact`,
          20_000,
        );
      }
    }
  };

  it('one poller for both replicas; each replica patches its live queries from the shared observation', async () => {
    await until(async () => (await polling(replicas)).length === 1, 'one poller', 20_000);
    const added = sandbox.addTunnel(KEY);
    await exact(replicas);
    for (const list of live.values()) expect(JSON.stringify(await list[1]?.data())).toContain(added.id);
    // The replica that does not poll made no poll call of its own, and evaluated the change: it
    // re-evaluates the poller's observation, shared through Redis.
    const [poller] = await polling(replicas);
    const idle = replicas.find((r) => r.name !== poller) as Replica;
    expect(await idle.metric('gateway_live_poll_upstream_calls_total')).toBe(0);
    expect(await idle.metric('gateway_live_query_evaluations_total', { outcome: 'changed' })).toBeGreaterThan(
      0,
    );
  });

  it('SIGKILL of the polling replica: the other takes the lease, its live queries keep updating', async () => {
    const [holderName] = await polling(replicas);
    const holder = replicas.find((r) => r.name === holderName) as Replica;
    const survivor = replicas.find((r) => r !== holder) as Replica;
    holder.kill();
    await until(() => holder.process.exitCode() !== undefined, 'the holder to die');
    await until(async () => (await polling([survivor])).length === 1, 'the survivor to poll', 20_000);
    const gone = sandbox.account(KEY).tunnels?.[2];
    if (gone) sandbox.removeTunnel(KEY, gone.id);
    sandbox.addTunnel(KEY);
    await exact([survivor]);
    const [agents, tunnels] = live.get(survivor.name) ?? [];
    expect([agents?.ended, tunnels?.ended]).toEqual([undefined, undefined]);
    expect(JSON.stringify(await tunnels?.data())).not.toContain(gone?.id);
    replicas = [survivor];
  });
});
