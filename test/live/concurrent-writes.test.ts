// Lost updates: ten writers through one gateway on Redis and a walker, interleaved through the
// answer gate. A walk fetches its page, then ten creates land upstream; their answers and the
// walk's page are released together, so the ten announcements and the walk's snapshot race for
// Redis. Every write is stored (compare-and-set, read again on a conflict): each endpoint is
// announced ONLINE exactly once, and the walks after it announce none again.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { dataOf } from '../support/stack';
import { type AnswerGate, startAnswerGate } from './answer-gate';
import { cloudSeeds, POLICY, walked, walks } from './endpoint-support';
import { ENDPOINT_EVENTS, KEY, type Stack, type Subscriber, sse, startLiveStack, until } from './support';

const CREATE = `mutation($input: CreateCloudEndpointInput!) {
  createCloudEndpoint(input: $input) { ... on CreateCloudEndpointPayload { endpoint { id } } }
}`;
const WRITERS = 10;

describe.runIf(redisTestsRun)('writers and a walker racing for the snapshot', () => {
  let stack: Stack;
  let gate: AnswerGate;
  let redis: RedisServer;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
    await gate.close();
    await redis.stop();
  });

  it(`${WRITERS} creates and a walk released together: each announced ONLINE once`, async () => {
    redis = await RedisServer.start();
    gate = await startAnswerGate();
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(1, { seed: 97 }), endpoints: cloudSeeds(3, 'l') } },
      env: {
        LIVE_POLL_INTERVAL_MS: '100',
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: 'ngw-lost:',
        // Room for the ten held writes and the held walk at once.
        UPSTREAM_CONNECTIONS: '32',
        UPSTREAM_MAX_CONCURRENCY: '32',
        UPSTREAM_TIMEOUT_MS: '15000',
      },
      upstreamUrl: gate.url,
    });
    gate.target = stack.sandbox.url;
    // Until Redis answers, the gateway keeps its state to itself: the race is for Redis's.
    await stack.gateway.shared.redis?.whenUp();
    const s = await sse(stack.url, KEY, {}, ENDPOINT_EVENTS());
    open.push(s);
    await walked(stack, 'endpoints', 0, 1);

    const held = gate;
    held.hold((method, url) => method === 'POST' || (method === 'GET' && url.startsWith('/endpoints')));
    await until(() => held.held() === 1, 'a walk to wait for its page');
    const before = await walks(stack, 'endpoints');
    const answers = Array.from({ length: WRITERS }, (_, i) =>
      stack.gql(CREATE, { input: { url: `https://lost-${i}.example.com`, trafficPolicy: POLICY } }),
    );
    await until(() => held.held() === WRITERS + 1, 'every write to land upstream');
    held.release();
    const made = (await Promise.all(answers)).map(
      ({ body }) => dataOf<{ endpoint: { id: string } }>(body, 'createCloudEndpoint').endpoint.id,
    );
    await s.received(WRITERS);
    // The walk that missed the writes, then three begun after them.
    await walked(stack, 'endpoints', before, 4);
    expect(s.seen().toSorted()).toEqual(made.map((id) => `ONLINE:${id}`).toSorted());
  });
});
