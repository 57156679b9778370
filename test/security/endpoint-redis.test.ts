// With REDIS_URL (a real redis-server), endpoint reads and writes of two keys leave their budget,
// cache and state in Redis, and no Redis key or value holds either API key: SCAN every key, read
// every value.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { until } from '../live/support';
import { redisContents } from '../support/redis-contents';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const CREATE = `mutation($url: String!) { createCloudEndpoint(input: { url: $url, trafficPolicy: "on_http_request: []" }) {
  __typename ... on CreateCloudEndpointPayload { endpoint { id } } } }`;
const UPDATE = 'mutation($id: ID!) { updateEndpoint(input: { id: $id, metadata: "m" }) { __typename } }';
const DELETE = 'mutation($id: ID!) { deleteEndpoint(input: { id: $id }) { __typename } }';
const READS = [
  '{ endpoints(first: 10) { nodes { id url trafficPolicy } } }',
  '{ tunnels(first: 3) { nodes { endpoint { node { ... on Endpoint { url } } } } } }',
];

/** Every key of the Redis server, and the text of every value (strings, hashes, sorted sets, sets, lists). */
async function dump(url: string): Promise<{ keys: string[]; texts: string[] }> {
  const admin = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const contents = await redisContents(admin);
    const unexpected = contents.texts.find((t) => t.startsWith('unexpected type'));
    if (unexpected) throw new Error(`${unexpected.replace('unexpected type', 'unexpected Redis type')}`);
    return contents;
  } finally {
    admin.disconnect();
  }
}

describe.runIf(redisTestsRun)('endpoint operations with Redis: no API key in any Redis key or value', () => {
  let redis: RedisServer;
  let stack: Stack;
  beforeAll(async () => {
    redis = await RedisServer.start();
    stack = await startStack({
      accounts: {
        [KEY]: { tunnels: makeTunnels(3, { seed: 86, kind: 'agent' }) },
        [OTHER_KEY]: { tunnels: makeTunnels(3, { seed: 87, kind: 'agent' }) },
      },
      env: { REDIS_URL: redis.url, CACHE_TTL_MS: '60000', UPSTREAM_RATE_LIMIT_PER_MIN: '100' },
    });
    await until(
      () => stack.lines().some((l) => String(l.msg).startsWith('Redis connected')),
      'the gateway to reach Redis',
      15_000,
    );
  }, 30_000);
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('reads and writes of both keys, then SCAN: their state is there, the keys are not', async () => {
    const endpointIds: string[] = [];
    for (const [n, key] of [KEY, OTHER_KEY].entries()) {
      for (const read of READS) expect((await stack.gql(read, {}, { key })).body.errors).toBeUndefined();
      const made = await stack.gql(CREATE, { url: `https://redis-${n}.example.com` }, { key });
      const id = dataOf<{ endpoint: { id: string } }>(made.body, 'createCloudEndpoint').endpoint.id;
      expect((await stack.gql(UPDATE, { id }, { key })).body.errors).toBeUndefined();
      // Read after the write: cached again, with the change.
      const read = await stack.gql(`{ endpoint(id: "${id}") { metadata } }`, {}, { key });
      expect(read.body.data).toEqual({ endpoint: { metadata: 'm' } });
      endpointIds.push(stack.sandbox.listEndpoints(key)[1]?.id ?? '?');
      expect((await stack.gql(DELETE, { id }, { key })).body.errors).toBeUndefined();
      // One more read: its answer stays cached in Redis.
      expect((await stack.gql(READS[0] ?? '', {}, { key })).body.errors).toBeUndefined();
    }
    const { keys, texts } = await dump(redis.url);
    // The budget and the cached answers are in Redis: the dump is not empty by accident.
    expect(keys.length).toBeGreaterThan(2);
    for (const id of endpointIds) expect(texts.some((t) => t.includes(id))).toBe(true);
    for (const credential of [KEY, OTHER_KEY]) {
      expect(texts.filter((t) => t.includes(credential))).toEqual([]);
      // Not even a recognisable part of it.
      expect(texts.filter((t) => t.includes(credential.slice(0, 10)))).toEqual([]);
    }
  });
});
