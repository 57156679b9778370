// Replies from Redis the shared state must live with, in this process, through a stand-in that
// relays to a real redis-server (test/support/bad-redis.ts): an error reply fails only its call,
// a message on a gateway channel that is not JSON is dropped without touching the connection, and
// a well-formed reply of the wrong type or range is not trusted, and a server that completes the
// handshake and then answers every command (the resubscription among them) with what cannot be read
// leaves no rejection unhandled, which would end the process.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { createPubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log';
import { createSharedState, type RedisConnection, type SharedState } from '../../src/shared-state';
import { keyNames } from '../../src/shared-state/redis/keys';
import { until } from '../live/support';
import { BadRedis, OVERSIZED_ARRAY_HEADER } from '../support/bad-redis';
import { RedisServer, redisTestsRun } from '../support/redis-server';

const DIGEST = createHash('sha256')
  .update('ngrok_fake_api_key_replies_51d0')
  .digest('base64url')
  .slice(0, 22);
const keys = keyNames('ngw:');
const TOPIC = `tunnelEvents:${DIGEST}`;

type Line = { msg: string; reason?: string };

/** The shared state with a budget of 10 a minute, logging into `lines`. */
const sharedState = (url: string, lines: Line[]): SharedState =>
  createSharedState(
    {
      redis: { url, keyPrefix: 'ngw:', timeoutMs: 300, fallbackReplicas: 1 },
      rateLimitPerMin: 10,
      livePollBudgetPerMin: 4,
      cache: { ttlMs: 60_000, maxEntries: 100 },
    },
    createLogger(
      { log: { level: 'info', format: 'json' }, server: { nodeEnv: 'production' } },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    ),
  );

describe.runIf(redisTestsRun)('replies Redis should not send', () => {
  let server: RedisServer;
  let bad: BadRedis;
  let admin: Redis;
  let shared: SharedState;
  let redis: RedisConnection;
  const lines: Line[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const pubSub = () =>
    createPubSub<{ tunnelEvents: [string, { id: string }] }>({ eventTarget: shared.events });

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    server = await RedisServer.start();
    bad = await BadRedis.start({ redisPort: server.port });
    admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
    shared = sharedState(`redis://127.0.0.1:${bad.port}`, lines);
    if (!shared.redis) throw new Error('expected a Redis connection');
    redis = shared.redis;
    await redis.whenUp();
  });
  afterAll(async () => {
    await shared?.close();
    admin?.disconnect();
    await bad?.stop();
    await server?.stop();
    process.off('unhandledRejection', onUnhandled);
  });

  const outages = () => lines.filter((l) => l.msg.startsWith('Redis unreachable'));

  it('fails only the call an error reply answers: the connection stays up', async () => {
    const connections = bad.connections;
    // The script reads the generation with GET: Redis answers WRONGTYPE for a hash.
    await admin.hset(keys.cacheGeneration(DIGEST), 'not', 'a string');
    expect(await shared.cache.lookup(DIGEST, '/tunnels')).toEqual({ hit: false, generation: -1 });
    expect(lines.find((l) => l.msg.startsWith('A Redis command failed'))?.reason).toMatch(/^WRONGTYPE/);
    expect(redis.state).toBe('up');
    expect(bad.connections).toBe(connections);
    expect(outages()).toEqual([]);
    await admin.del(keys.cacheGeneration(DIGEST));
  });

  it('never logs the password a server quotes back in an error', async () => {
    const password = 'redis-pass-3e9b77d1';
    const quoting = await BadRedis.start({ redisPort: server.port });
    quoting.mode = 'unknown-commands';
    const own: Line[] = [];
    const other = sharedState(`redis://:${password}@127.0.0.1:${quoting.port}`, own);
    try {
      await until(() => own.some((l) => l.msg.startsWith('Redis unreachable')), 'the failure to be logged');
      expect(own.find((l) => l.msg.startsWith('Redis unreachable'))?.reason).toBe(
        "ERR unknown command 'auth', with args beginning with: '***'",
      );
      expect(JSON.stringify(own)).not.toContain(password);
    } finally {
      await other.close();
      await quoting.stop();
    }
  });

  it('drops a message on a gateway channel that is not JSON and keeps the subscription', async () => {
    const connections = bad.connections;
    const events = pubSub().subscribe('tunnelEvents', DIGEST)[Symbol.asyncIterator]();
    const first = events.next();
    await shared.events?.subscribed(TOPIC);
    await admin.publish(keys.channel(TOPIC), 'not json {');
    await admin.publish(keys.channel(TOPIC), JSON.stringify({ id: 'tn_1' }));
    expect(await first).toEqual({ done: false, value: { id: 'tn_1' } });
    expect(redis.state).toBe('up');
    expect(bad.connections).toBe(connections);
    await events.return?.();
  });

  it('trusts no reply of the wrong type or out of range: the call answers from this process', async () => {
    const connections = bad.connections;
    bad.answer = ':99999999999999\r\n';
    bad.mode = 'after-handshake';
    await until(() => bad.connections >= connections + 2 && redis.up, 'the connections to come back');
    // An integer where GET answers a string or nothing: it would pause the credential for millennia.
    expect(await shared.pauses.pausedUntil(DIGEST)).toBeUndefined();
    expect(await shared.snapshots.get(DIGEST)).toBeUndefined();
    // A string, but a pause longer than any the gateway sets.
    bad.answer = '$14\r\n99999999999999\r\n';
    expect(await shared.pauses.pausedUntil(DIGEST)).toBeUndefined();
    // A refusal for longer than the window: the budget in this process grants the call.
    bad.answer = '*3\r\n:0\r\n:999999999\r\n:1717171717171\r\n';
    expect(await shared.budget.take(DIGEST, 'read')).toMatchObject({ granted: true, remaining: 8 });
    // A generation that is no counter.
    bad.answer = '*1\r\n$2\r\n-7\r\n';
    expect(await shared.cache.lookup(DIGEST, '/tunnels')).toEqual({ hit: false, generation: -1 });
    // Well-formed replies fail only their calls: the connections stay.
    expect(redis.state).toBe('up');
    expect(bad.connections).toBe(connections + 2);
    bad.mode = 'relay';
    await until(() => bad.connections >= connections + 4 && redis.up, 'the connections to come back');
  });

  it.each([
    [OVERSIZED_ARRAY_HEADER, 'array too long'],
    // Well formed, but ioredis throws reading it as the answer to SUBSCRIBE (reply[1].toString()).
    ['*1\r\n:1\r\n', 'the client could not handle it'],
  ])(
    'leaves no rejection unhandled when every command after the handshake is answered %j',
    async (answer, why) => {
      const events = pubSub().subscribe('tunnelEvents', DIGEST)[Symbol.asyncIterator]();
      const first = events.next();
      await shared.events?.subscribed(TOPIC);
      const connections = bad.connections;
      bad.answer = answer;
      bad.mode = 'after-handshake';
      // Each connection comes back, is up until its first command (the resubscription, a call) and
      // is dropped again: twice over, and every call meanwhile answers from this process.
      const failures: unknown[] = [];
      await until(async () => {
        await Promise.all([shared.cache.lookup(DIGEST, '/tunnels'), shared.pauses.pausedUntil(DIGEST)]).catch(
          (error: unknown) => failures.push(error),
        );
        return bad.connections >= connections + 4;
      }, 'two rounds of reconnection');
      // Past the command timeout of the last resubscription.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(failures).toEqual([]);
      expect(outages().at(-1)?.reason).toBe(`malformed Redis reply: ${why}`);

      bad.mode = 'relay';
      await redis.whenUp();
      const channel = keys.channel(TOPIC);
      await until(
        async () => ((await admin.pubsub('NUMSUB', channel)) as [string, number])[1] === 1,
        'the resubscription',
      );
      await admin.publish(channel, JSON.stringify({ id: 'tn_2' }));
      expect(await first).toEqual({ done: false, value: { id: 'tn_2' } });
      await events.return?.();
      expect(unhandled).toEqual([]);
    },
    30_000,
  );
});
