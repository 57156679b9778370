// Redis stalls for less than a poll lease while the poller's replica walks (a slow Redis, or a
// replica too busy to read its answers within REDIS_TIMEOUT_MS): the commands that time out fall
// back to the process, and the lease's renewal among them must not cost the poller its lease or a
// walk. The same replica goes on polling throughout, alone, and no walk is cut short.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { EVENTS, KEY, type Subscriber, sse, until } from '../live/support';
import { bundleMain } from '../operability/process';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { polling, type Replica, settledPoller, startReplica } from './replicas';

/** Far below the stall, so that every command sent during it times out. */
const REDIS_TIMEOUT_MS = '150';
/** Below the lease's 1.5 s, and long enough for a walk's end and a timed renewal to fall in it. */
const STALL_MS = 900;

describe.runIf(redisTestsRun)('a Redis stall shorter than the poll lease', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let replicas: Replica[] = [];
  let remove = () => {};
  const subscribers: Subscriber[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({
      rateLimit: false,
      accounts: { [KEY]: { tunnels: makeTunnels(3, { seed: 74 }) } },
    });
    const bundle = await bundleMain();
    remove = bundle.remove;
    replicas = await Promise.all(
      ['a', 'b'].map((name) =>
        startReplica(bundle.main, name, {
          sandbox,
          redisUrl: redis.url,
          keyPrefix: 'ngw-stall:',
          env: { REDIS_TIMEOUT_MS },
        }),
      ),
    );
    for (const r of replicas) subscribers.push(await sse(r.url, KEY, { includeCurrent: true }, EVENTS('id')));
    for (const s of subscribers) await s.received(3);
  }, 60_000);

  afterAll(async () => {
    for (const s of subscribers) s.close();
    await Promise.all(replicas.map((r) => r.process.stop()));
    await sandbox?.close();
    await redis?.stop();
    remove();
  });

  it('keeps the lease and every walk on the replica that polls', async () => {
    const holder = await settledPoller(replicas);
    const lost = async () =>
      (
        await Promise.all(
          replicas.map((r) => r.metric('gateway_live_polls_total', { outcome: 'lease_lost' })),
        )
      ).reduce((sum, n) => sum + n, 0);
    const poller = replicas.find((r) => r.name === holder) as Replica;
    const complete = () => poller.metric('gateway_live_polls_total', { outcome: 'complete' });
    expect(await lost()).toBe(0);

    // Who polls, sampled through the stall and a moment after it.
    const seen = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        seen.add((await polling(replicas)).join(','));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await redis.stall(STALL_MS);
    const after = await complete();
    await until(async () => (await complete()) >= after + 3, `3 more walks on ${holder}`, 20_000);
    sampling = false;
    await sampler;

    expect([...seen]).toEqual([holder]);
    expect(await lost()).toBe(0);
    // Each wait above may take its own 20 s on a loaded machine.
  }, 90_000);
});
