// Redis answering what no Redis would send, to the gateway as `npm start` runs it (its own
// process): an array header longer than 2^32-1 on every command, then random bytes for 20 s.
// Before, redis-parser threw a RangeError out of the socket's data handler and the process died.
// Now every query answers with data from per-process state, /readiness says Redis is down, the
// process is still running, and it is back on Redis once Redis answers properly again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../live/support';
import { bundleMain, type GatewayProcess, startProcess } from '../operability/process';
import { BadRedis } from '../support/bad-redis';
import { RedisServer, redisTestsRun } from '../support/redis-server';

const PASSWORD = 'redis-pass-9f2e41c7';
const QUERY = JSON.stringify({ query: '{ tunnels(first: 1) { nodes { id } } }' });

describe.runIf(redisTestsRun)('a Redis that sends malformed replies', () => {
  let redis: RedisServer;
  let bad: BadRedis;
  let gateway: GatewayProcess;
  let remove = () => {};
  /** Everything the process writes once started (its start-up lines are in gateway.output()). */
  let logged = '';

  beforeAll(async () => {
    redis = await RedisServer.start();
    // Seed 657: the third connection given random bytes (the first reconnection) gets a stream that
    // opens with `*` and a length over 2^32-1, the reply of the issue; the other streams are as random.
    bad = await BadRedis.start({ redisPort: redis.port, seed: 657 });
    const bundle = await bundleMain();
    remove = bundle.remove;
    gateway = await startProcess(bundle.main, {
      NODE_ENV: 'development',
      REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${bad.port}`,
      // Every query reads the cache in Redis; one a second at most reaches the upstream.
      CACHE_TTL_MS: '1000',
      UPSTREAM_RATE_LIMIT_PER_MIN: '10000',
    });
    for (const stream of [gateway.child.stdout, gateway.child.stderr]) {
      stream?.on('data', (chunk) => {
        logged += String(chunk);
      });
    }
    await until(async () => (await redisState()) === 'up', 'the gateway to reach Redis');
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await bad?.stop();
    await redis?.stop();
    remove();
  });

  const redisState = async (): Promise<string | undefined> => {
    if (gateway.exitCode() !== undefined) throw new Error(`the gateway exited:\n${gateway.output()}`);
    const response = await fetch(`${gateway.base}/readiness`);
    const body = (await response.json()) as { redis?: { state?: string } };
    return body.redis?.state;
  };

  /** One query; 'ok' when it answered with data, else what came instead. */
  const ask = async (): Promise<string> => {
    try {
      const response = await fetch(`${gateway.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: QUERY,
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      const body = JSON.parse(text) as { data?: { tunnels?: { nodes?: unknown[] } }; errors?: unknown };
      const ok =
        response.status === 200 && body.errors === undefined && body.data?.tunnels?.nodes?.length === 1;
      return ok ? 'ok' : `${response.status} ${text.slice(0, 300)}`;
    } catch (error) {
      return `no answer: ${String(error)}`;
    }
  };

  /** A query every 200 ms while `during` runs; every answer, in order. */
  const queriesDuring = async (during: () => Promise<void>): Promise<string[]> => {
    const answers: Promise<string>[] = [];
    let running = true;
    const sending = (async () => {
      while (running) {
        answers.push(ask());
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    try {
      await during();
    } finally {
      running = false;
      await sending;
    }
    return Promise.all(answers);
  };

  const outages = () => logged.split('\n').filter((line) => line.includes('Redis unreachable')).length;

  it('answers every query while every command gets an array header longer than 2^32-1', async () => {
    const before = outages();
    bad.mode = 'oversized';
    const answers = await queriesDuring(async () => {
      await until(async () => (await redisState()) === 'down', 'the gateway to see Redis down');
      // A reconnection gets the same answer to its handshake.
      const connections = bad.connections;
      await until(() => bad.connections > connections, 'a reconnection');
    });
    expect(gateway.exitCode(), gateway.output()).toBeUndefined();
    expect(answers.length).toBeGreaterThanOrEqual(5);
    expect(answers.filter((a) => a !== 'ok')).toEqual([]);
    expect(await redisState()).toBe('down');
    expect(outages()).toBe(before + 1);

    bad.mode = 'relay';
    await until(async () => (await redisState()) === 'up', 'the gateway back on Redis');
    expect(await ask()).toBe('ok');
  }, 60_000);

  it('answers every query while Redis sends random bytes for 20 s', async () => {
    const before = outages();
    bad.mode = 'random';
    const started = Date.now();
    const answers = await queriesDuring(async () => {
      await until(async () => (await redisState()) === 'down', 'the gateway to see Redis down');
      await until(() => Date.now() - started >= 20_000, '20 s of random bytes', 30_000);
    });
    expect(gateway.exitCode(), gateway.output()).toBeUndefined();
    // The two connections open at the switch, and reconnections: the third opens with `*` and a length over 2^32-1.
    expect(bad.randomStreams).toBeGreaterThanOrEqual(4);
    expect(answers.length).toBeGreaterThanOrEqual(20);
    expect(answers.filter((a) => a !== 'ok')).toEqual([]);
    expect(await redisState()).toBe('down');
    expect(await (await fetch(`${gateway.base}/metrics`)).text()).toMatch(/^gateway_redis_up 0$/m);
    expect(outages()).toBe(before + 1);

    bad.mode = 'relay';
    await until(async () => (await redisState()) === 'up', 'the gateway back on Redis');
    expect(await ask()).toBe('ok');
    expect(gateway.exitCode(), gateway.output()).toBeUndefined();
    expect(`${gateway.output()}${logged}`).not.toContain(PASSWORD);
  }, 60_000);
});
