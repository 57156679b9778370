// tunnelSessionEvents across three gateway replicas (separate processes) on one redis-server, with
// subscribers of the three kinds spread over them: one replica polls the account for the cluster and
// walks /tunnel_sessions for the other replicas' agent subscribers (through their interest marks);
// a STOP sent through another replica reaches every agent subscriber once, from the next walk; the
// three lists' calls for the whole cluster stop at the one LIVE_POLL_BUDGET_PER_MIN; nothing in
// Redis carries the credential.
import type { Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { joinedAccount, makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { keyDigest } from '../../src/upstream';
import { command } from '../live/session-support';
import {
  ENDPOINT_EVENTS,
  EVENTS,
  KEY,
  OTHER_KEY,
  SESSION_EVENTS,
  type Subscriber,
  sse,
  until,
  wsClient,
  wsSubscribe,
} from '../live/support';
import { bundleMain } from '../operability/process';
import { redisContents } from '../support/redis-contents';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { polling, type Replica, startReplica } from './replicas';

/** A replica's walks of a list (`complete` ones, or all of them). */
const walksOf = (replica: Replica, list: string, outcome?: 'complete') =>
  replica.metric('gateway_live_polls_total', { list, ...(outcome ? { outcome } : {}) });

describe.runIf(redisTestsRun)('tunnel session events across three replicas', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let main = '';
  let remove = () => {};
  let replicas: Replica[] = [];
  const clients: Client[] = [];
  const open: Subscriber[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    // OTHER_KEY: 3 tunnels (one page each of /tunnels and /endpoints) and 1 203 agents (13 pages).
    const many = joinedAccount(1200, { seed: 92 }).tunnelSessions ?? [];
    const few = makeTunnels(3, { seed: 93, kind: 'agent' });
    sandbox = await startSandbox({
      rateLimit: false,
      accounts: {
        [KEY]: joinedAccount(3, { seed: 91 }),
        [OTHER_KEY]: {
          tunnels: few,
          tunnelSessions: [...(joinedAccount(3, { seed: 94 }).tunnelSessions ?? []), ...many],
        },
      },
    });
    ({ main, remove } = await bundleMain());
  }, 60_000);

  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    await Promise.all(replicas.map((r) => r.process.stop()));
    replicas = [];
  });

  afterAll(async () => {
    await sandbox?.close();
    await redis?.stop();
    remove();
  });

  const startAll = async (prefix: string, env: Record<string, string> = {}) => {
    replicas = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        startReplica(main, name, { sandbox, redisUrl: redis.url, keyPrefix: prefix, env }),
      ),
    );
    return replicas as [Replica, Replica, Replica];
  };
  const viaSse = async (replica: Replica, key: string, query: string) => {
    const s = await sse(replica.url, key, {}, query);
    open.push(s);
    return s;
  };
  const viaWs = (replica: Replica, key: string, query: string) => {
    const client = wsClient(replica.wsUrl, key);
    clients.push(client);
    const s = wsSubscribe(client, {}, query);
    open.push(s);
    return s;
  };

  it('one replica walks /tunnel_sessions for the cluster; a STOP through c reaches the agent subscribers on b and c once', async () => {
    const prefix = 'ngw-ts:';
    const [a, b, c] = await startAll(prefix);
    // a subscribes first and takes the lease: it has no agent subscriber of its own.
    const tunnelSub = await viaSse(a, KEY, EVENTS('id'));
    await until(async () => (await polling(replicas)).join() === 'a', 'a to poll');
    const sessionSubs = [
      await viaSse(b, KEY, SESSION_EVENTS()),
      viaWs(b, KEY, SESSION_EVENTS()),
      viaWs(c, KEY, SESSION_EVENTS()),
    ];
    const endpointSub = await viaSse(c, KEY, ENDPOINT_EVENTS());
    for (const [r, n] of [
      [b, 2],
      [c, 2],
    ] as const)
      await until(
        async () => (await r.metric('gateway_live_subscriptions')) === n,
        `${r.name}'s subscribers`,
      );
    // b's and c's interest marks make a walk /tunnel_sessions: two complete walks, the first a baseline.
    await until(async () => (await walksOf(a, 'tunnel_sessions', 'complete')) >= 2, 'a to walk the agents');

    // Stopped through c: its tunnels and their agent endpoints go with it, each seen by the next walk.
    const gone = String(sandbox.listed(KEY, 'tunnel_sessions')[0]?.id);
    const tunnels = sandbox.account(KEY).tunnels?.filter((t) => t.tunnel_session.id === gone) ?? [];
    expect(tunnels).toHaveLength(1);
    await command(c.url, gone, 'STOP');
    for (const s of [...sessionSubs, tunnelSub, endpointSub]) await s.received(1);
    const walked = await walksOf(a, 'tunnel_sessions', 'complete');
    await until(
      async () => (await walksOf(a, 'tunnel_sessions', 'complete')) >= walked + 3,
      'three more walks',
    );
    for (const s of sessionSubs) expect(s.seen()).toEqual([`OFFLINE:${gone}`]);
    expect(tunnelSub.seen()).toEqual([`OFFLINE:${tunnels[0]?.id}`]);
    expect(endpointSub.seen()).toEqual([`OFFLINE:${tunnels[0]?.endpoint?.id}`]);
    for (const s of open) expect(s.ended).toBeUndefined();
    expect(await polling(replicas)).toEqual(['a']);
    for (const r of [b, c]) expect(await walksOf(r, 'tunnel_sessions')).toBe(0);
    const made = await Promise.all(replicas.map((r) => r.metric('gateway_live_poll_upstream_calls_total')));
    expect(made.slice(1)).toEqual([0, 0]);

    const admin = new Redis(redis.url);
    try {
      const { keys, texts } = await redisContents(admin);
      expect(keys).toContain(`${prefix}live-snapshot:tunnel_sessions:${keyDigest(KEY)}`);
      expect(texts.join('\n')).not.toContain(KEY);
    } finally {
      admin.disconnect();
    }
  }, 90_000);

  it('the three lists share the one poll budget: the cluster makes LIVE_POLL_BUDGET_PER_MIN calls a minute, from one replica', async () => {
    const [a, b, c] = await startAll('ngw-ts-budget:', {
      LIVE_POLL_BUDGET_PER_MIN: '10',
      UPSTREAM_RETRIES: '0',
    });
    await viaSse(a, OTHER_KEY, EVENTS('id'));
    await until(async () => (await polling(replicas)).join() === 'a', 'a to poll');
    viaWs(b, OTHER_KEY, ENDPOINT_EVENTS());
    await viaSse(c, OTHER_KEY, SESSION_EVENTS());
    viaWs(c, OTHER_KEY, EVENTS('id'));
    const calls = () => ({
      tunnels: sandbox.calls('listTunnels', OTHER_KEY),
      endpoints: sandbox.calls('listEndpoints', OTHER_KEY),
      sessions: sandbox.calls('listTunnelSessions', OTHER_KEY),
    });
    const total = () => Object.values(calls()).reduce((sum, n) => sum + n, 0);
    // A turn of the three lists needs 15 calls: the walk of /tunnel_sessions waits mid-walk for room.
    await until(() => total() >= 10, 'ten poll calls', 30_000);
    // Ten intervals more: the walk would go on if the calls of the other lists were not counted.
    await new Promise((resolve) => setTimeout(resolve, 10 * 200));
    expect(total()).toBe(10);
    const { tunnels, endpoints, sessions } = calls();
    expect(tunnels).toBeGreaterThanOrEqual(1);
    expect(endpoints).toBeGreaterThanOrEqual(1);
    expect(sessions).toBeGreaterThanOrEqual(1);
    const made = await Promise.all(replicas.map((r) => r.metric('gateway_live_poll_upstream_calls_total')));
    expect(made).toEqual([10, 0, 0]);
    expect(await walksOf(a, 'tunnel_sessions', 'complete')).toBe(0);
    expect(await polling(replicas)).toEqual(['a']);
    for (const r of [b, c]) expect(await r.metric('gateway_live_standby_pollers')).toBe(1);
  }, 90_000);
});
