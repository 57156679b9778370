// REDIS_URL pointing at something that is not a working Redis, to an in-process gateway: an HTTP
// server, a TCP server that never answers, a real redis-server whose every reply comes 3 s late, and a
// real Redis holding garbage at the gateway's own keys. Each time queries keep answering with data
// (per-process state where Redis fails), /readiness shows Redis's state, and the password in
// REDIS_URL reaches no log line.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../src/sandbox';
import { keyNames } from '../../src/shared-state/redis/keys';
import { keyDigest } from '../../src/upstream';
import { until } from '../live/support';
import { BadRedis } from '../support/bad-redis';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { KEY, listen, type Stack, startStack } from '../support/stack';

const PASSWORD = 's3cret-pass';
const QUERY = '{ tunnels(first: 2) { nodes { id } } }';
const keys = keyNames('ngw:');

/** An in-process gateway whose REDIS_URL carries the password to `port`, with a budget and a cache. */
const gatewayOn = (port: number): Promise<Stack> =>
  startStack({
    accounts: { [KEY]: demoData({ tunnels: 3 }) },
    env: {
      REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${port}`,
      REDIS_TIMEOUT_MS: '200',
      UPSTREAM_RATE_LIMIT_PER_MIN: '1000',
    },
  });

const redisState = async (stack: Stack): Promise<string | undefined> => {
  const body = (await (await fetch(`${stack.base}/readiness`)).json()) as { redis?: { state?: string } };
  return body.redis?.state;
};

/** Three queries in a row, each answered with the two tunnels and no error. */
const expectQueriesAnswer = async (stack: Stack): Promise<void> => {
  for (let i = 0; i < 3; i += 1) {
    const { status, body } = await stack.gql(QUERY);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect((body.data?.tunnels as { nodes?: unknown[] } | undefined)?.nodes).toHaveLength(2);
  }
};

const expectNoPasswordLogged = (stack: Stack): void => {
  expect(stack.lines().length).toBeGreaterThan(0);
  expect(stack.text()).not.toContain(PASSWORD);
};

const outageLogged = (stack: Stack): boolean =>
  stack.lines().some((l) => String(l.msg).startsWith('Redis unreachable'));

describe.runIf(redisTestsRun)('REDIS_URL at something that is not a working Redis', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('an HTTP server: queries answer, Redis is down, the password is not logged', async () => {
    const http: HttpServer = createHttpServer((_req, res) => res.end('<html>not redis</html>'));
    const port = Number(new URL(await listen(http)).port);
    cleanups.push(async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const stack = await gatewayOn(port);
    cleanups.push(() => stack.close());
    await until(() => outageLogged(stack), 'the outage to be logged', 15_000);
    expect(await redisState(stack)).toBe('down');
    await expectQueriesAnswer(stack);
    expect(await redisState(stack)).toBe('down');
    expectNoPasswordLogged(stack);
  }, 30_000);

  it('a TCP server that never answers: queries answer, Redis is not up, the password is not logged', async () => {
    const sockets = new Set<Socket>();
    const silent: TcpServer = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const stack = await gatewayOn(port);
    cleanups.push(() => stack.close());
    await until(() => sockets.size > 0, 'the gateway to connect', 15_000);
    await expectQueriesAnswer(stack);
    expect(await redisState(stack)).not.toBe('up');
    await until(async () => (await redisState(stack)) === 'down', 'Redis to be seen down', 15_000);
    await expectQueriesAnswer(stack);
    expectNoPasswordLogged(stack);
  }, 30_000);

  describe('a real redis-server', () => {
    let server: RedisServer;
    let admin: Redis;
    beforeAll(async () => {
      server = await RedisServer.start();
      cleanups.push(() => server.stop());
      // The gateway sends AUTH with the password: this Redis asks for it.
      const setup = new Redis(server.url, { maxRetriesPerRequest: 1 });
      await setup.config('SET', 'requirepass', PASSWORD);
      setup.disconnect();
      admin = new Redis({
        host: '127.0.0.1',
        port: server.port,
        password: PASSWORD,
        maxRetriesPerRequest: 1,
      });
      cleanups.push(async () => admin.disconnect());
    });

    it('whose every reply comes 3 s late: queries answer, Redis is not up, the password is not logged', async () => {
      const late = await BadRedis.start({ redisPort: server.port });
      late.mode = 'delayed';
      cleanups.push(() => late.stop());
      const stack = await gatewayOn(late.port);
      cleanups.push(() => stack.close());
      await until(() => late.connections > 0, 'the gateway to connect', 15_000);
      await expectQueriesAnswer(stack);
      expect(await redisState(stack)).not.toBe('up');
      await until(async () => (await redisState(stack)) === 'down', 'Redis to be seen down', 15_000);
      // Past the first late replies too: they come after the gateway gave up on them.
      const held = late.heldReplies;
      expect(held).toBeGreaterThan(0);
      await until(() => late.lateReplies >= held, 'the replies held so far to come late', 15_000);
      await expectQueriesAnswer(stack);
      expect(await redisState(stack)).toBe('down');
      expectNoPasswordLogged(stack);
    }, 30_000);

    it("holding garbage at the gateway's keys: queries answer, Redis stays up, the password is not logged", async () => {
      const digest = keyDigest(KEY);
      // Wrong types where the scripts expect a sorted set, a string or a counter; text that is no JSON.
      await admin.set(keys.budget(digest), 'not a sorted set');
      await admin.hset(keys.pause(digest), 'not', 'a time');
      await admin.hset(keys.cacheGeneration(digest), 'not', 'a counter');
      await admin.set(keys.snapshot(digest), 'not json {');
      const stack = await gatewayOn(server.port);
      cleanups.push(() => stack.close());
      await until(async () => (await redisState(stack)) === 'up', 'the gateway to reach Redis', 15_000);
      await expectQueriesAnswer(stack);
      expect(stack.lines().some((l) => String(l.msg).startsWith('A Redis command failed'))).toBe(true);
      // A pause that is no number and a generation that is no counter, both as strings.
      await admin.set(keys.pause(digest), 'soon');
      await admin.set(keys.cacheGeneration(digest), 'seven');
      await admin.set(`${keys.cacheEntries(digest)}0:/tunnels`, 'not json {');
      await expectQueriesAnswer(stack);
      expect(await redisState(stack)).toBe('up');
      expect(outageLogged(stack)).toBe(false);
      expectNoPasswordLogged(stack);
    }, 30_000);
  });
});
