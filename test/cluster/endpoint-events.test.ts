// endpointEvents across three gateway replicas (separate processes) on one redis-server: tunnel
// subscribers on a, endpoint subscribers on b, both on c. One replica polls the account for the
// cluster and walks each list once a turn (a walks /endpoints for b's and c's subscribers, through
// their interest marks); a write through a reaches the endpoint subscribers on b and c at once and
// exactly once; nothing in Redis carries the credential.
import type { Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { keyDigest } from '../../src/upstream';
import { cloudSeeds, POLICY } from '../live/endpoint-support';
import {
  ENDPOINT_EVENTS,
  EVENTS,
  KEY,
  type Subscriber,
  sse,
  until,
  wsClient,
  wsSubscribe,
} from '../live/support';
import { bundleMain } from '../operability/process';
import { redisContents } from '../support/redis-contents';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { dataOf, postGraphQL } from '../support/stack';
import { polling, type Replica, startReplica } from './replicas';

const PREFIX = 'ngw-ep:';
const DIGEST = keyDigest(KEY);
const CREATE = `mutation($input: CreateCloudEndpointInput!) {
  createCloudEndpoint(input: $input) { __typename ... on CreateCloudEndpointPayload { endpoint { id } } }
}`;

/** A replica's walks of each list, from one scrape of its /metrics (all outcomes unless `complete`). */
async function walksOf(replica: Replica, complete = true): Promise<{ tunnels: number; endpoints: number }> {
  const text = await (await fetch(replica.url.replace(/\/graphql$/, '/metrics'))).text();
  const of = (list: string) => {
    let sum = 0;
    for (const m of text.matchAll(/^gateway_live_polls_total\{([^}]*)\} (\S+)$/gm))
      if (m[1]?.includes(`list="${list}"`) && (!complete || m[1].includes('outcome="complete"')))
        sum += Number(m[2]);
    return sum;
  };
  return { tunnels: of('tunnels'), endpoints: of('endpoints') };
}

describe.runIf(redisTestsRun)('endpoint events across three replicas', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let replicas: Replica[] = [];
  let remove = () => {};
  let admin: Redis;
  let monitor: Redis;
  const messages: string[] = [];
  const clients: Client[] = [];
  const tunnels = makeTunnels(2, { seed: 81, kind: 'agent' });

  beforeAll(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({
      rateLimit: false,
      accounts: { [KEY]: { tunnels, endpoints: cloudSeeds(2, 'c') } },
    });
    const bundle = await bundleMain();
    remove = bundle.remove;
    replicas = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        startReplica(bundle.main, name, { sandbox, redisUrl: redis.url, keyPrefix: PREFIX }),
      ),
    );
    admin = new Redis(redis.url);
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

  it('one replica polls both lists for the cluster, each once a turn; a write through a reaches b and c once', async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const ws = (replica: Replica, query: string) => {
      const client = wsClient(replica.wsUrl, KEY);
      clients.push(client);
      return wsSubscribe(client, {}, query);
    };
    // a subscribes first and takes the lease: it has no endpoint subscriber of its own.
    const tunnelSubs: Subscriber[] = [await sse(a.url, KEY, {}, EVENTS('id')), ws(a, EVENTS('id'))];
    await until(async () => (await polling(replicas)).join() === 'a', 'a to poll');
    const endpointSubs: Subscriber[] = [
      await sse(b.url, KEY, {}, ENDPOINT_EVENTS()),
      ws(b, ENDPOINT_EVENTS()),
    ];
    tunnelSubs.push(await sse(c.url, KEY, {}, EVENTS('id')));
    endpointSubs.push(ws(c, ENDPOINT_EVENTS()));
    for (const [r, n] of [
      [b, 2],
      [c, 2],
    ] as const)
      await until(
        async () => (await r.metric('gateway_live_subscriptions')) === n,
        `${r.name}'s subscribers`,
      );
    // b's and c's interest marks make a walk /endpoints: two complete walks, the first a baseline.
    await until(async () => (await walksOf(a)).endpoints >= 2, 'a to walk /endpoints');
    expect(await polling(replicas)).toEqual(['a']);
    const gauges = await Promise.all(replicas.map((r) => r.metric('gateway_live_pollers')));
    expect(gauges).toEqual([1, 0, 0]);
    expect(await Promise.all(replicas.map((r) => r.metric('gateway_live_standby_pollers')))).toEqual([
      0, 1, 1,
    ]);

    // One change to both lists: an agent tunnel goes, and its endpoint with it.
    const tunnel = tunnels[0]?.id ?? '';
    const agent = sandbox.listEndpoints(KEY).find((e) => e.tunnel?.id === tunnel)?.id ?? '';
    expect(agent).toMatch(/^ep_/);
    sandbox.removeTunnel(KEY, tunnel);
    for (const s of tunnelSubs) await s.received(1);
    for (const s of endpointSubs) await s.received(1);

    // Each turn walks /tunnels then /endpoints: the gap between a's two counts moves by one at most.
    const before = await walksOf(a);
    await until(async () => (await walksOf(a)).tunnels >= before.tunnels + 5, 'five more turns');
    const after = await walksOf(a);
    expect(after.endpoints - before.endpoints).toBeGreaterThanOrEqual(4);
    expect(
      Math.abs(after.tunnels - after.endpoints - (before.tunnels - before.endpoints)),
    ).toBeLessThanOrEqual(1);
    for (const r of [b, c]) expect(await walksOf(r, false)).toEqual({ tunnels: 0, endpoints: 0 });

    // A walk of /endpoints stalls at the stand-in: until it ends, only the write can tell b and c.
    sandbox.setLatency('listEndpoints', 5_000);
    const pages = sandbox.calls('listEndpoints', KEY);
    await until(() => sandbox.calls('listEndpoints', KEY) > pages, 'a walk to stall');
    const stalled = await walksOf(a, false);
    const { body } = await postGraphQL(a.url, CREATE, {
      input: { url: 'https://across.example.com', trafficPolicy: POLICY },
    });
    const written = dataOf<{ endpoint: { id: string } }>(body, 'createCloudEndpoint').endpoint.id;
    for (const s of endpointSubs) await s.received(2);
    expect((await walksOf(a, false)).endpoints).toBe(stalled.endpoints);
    sandbox.setLatency('listEndpoints', 0);
    // The stalled walk, then two begun after the write: none announces it again.
    await until(
      async () => (await walksOf(a)).endpoints >= stalled.endpoints + 3,
      'three more walks',
      20_000,
    );
    for (const s of endpointSubs) expect(s.seen()).toEqual([`OFFLINE:${agent}`, `ONLINE:${written}`]);
    for (const s of tunnelSubs) expect(s.seen()).toEqual([`OFFLINE:${tunnel}`]);
    for (const s of [...tunnelSubs, ...endpointSubs]) expect(s.ended).toBeUndefined();
    expect(await polling(replicas)).toEqual(['a']);

    // b and c leave first (a keeps the lease), then a: every call was a's, one a walk.
    for (const s of endpointSubs) s.close();
    tunnelSubs.pop()?.close();
    for (const r of [b, c])
      await until(
        async () =>
          (await r.metric('gateway_live_pollers')) + (await r.metric('gateway_live_standby_pollers')) === 0,
        `${r.name}'s poller to stop`,
      );
    for (const s of tunnelSubs) s.close();
    await until(async () => (await a.metric('gateway_live_pollers')) === 0, "a's poller to stop");
    const calls = {
      tunnels: sandbox.calls('listTunnels', KEY),
      endpoints: sandbox.calls('listEndpoints', KEY),
    };
    expect(await walksOf(a, false)).toEqual(calls);
    const made = await Promise.all(replicas.map((r) => r.metric('gateway_live_poll_upstream_calls_total')));
    expect(made).toEqual([calls.tunnels + calls.endpoints, 0, 0]);
    expect(sandbox.calls('createEndpoint', KEY)).toBe(1);
    expect(await admin.get(`${PREFIX}lease:live-poll:${DIGEST}`)).toBeNull();
  }, 90_000);

  it('no Redis key, value or pub/sub message carries the credential', async () => {
    const { keys, texts: dump } = await redisContents(admin);
    expect(keys).toContain(`${PREFIX}live-snapshot:endpoints:${DIGEST}`);
    expect(keys).toContain(`${PREFIX}live-snapshot:tunnels:${DIGEST}`);
    expect(dump.join('\n')).not.toContain(KEY);
    expect(dump.join('\n')).not.toContain('unexpected type');
    const topics = new Set(messages.map((m) => m.slice(0, m.indexOf(' '))));
    expect([...topics].sort()).toEqual([
      `${PREFIX}events:endpointEvents:${DIGEST}`,
      `${PREFIX}events:tunnelEvents:${DIGEST}`,
    ]);
    expect(messages.join('\n')).not.toContain(KEY);
  });
});
