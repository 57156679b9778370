// Snapshots on a real redis-server. One account's endpoint list past LIVE_MAX_SNAPSHOT_BYTES ends
// that list's streams with LIVE_SNAPSHOT_TOO_LARGE and is never stored, while its tunnel events and
// another account's endpoint events go on and Redis stays up for everyone (before the bound, the
// list was stored whatever its size, and past Redis's reply guard every replica lost Redis). And 50
// includeCurrent subscribers on a replica that does not poll start from one parsed copy: the
// store's read hands the snapshot's body over once per version, never once per subscriber.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import type { StoredSnapshot } from '../../src/shared-state';
import { keyDigest } from '../../src/upstream';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { cloudSeeds, POLICY } from './endpoint-support';
import {
  ENDPOINT_EVENTS,
  EVENTS,
  KEY,
  metric,
  OTHER_KEY,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  until,
} from './support';

const MAX_BYTES = 16 * 1024;

describe.runIf(redisTestsRun)('live snapshots on Redis, bounded and shared', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  async function redisFor(): Promise<RedisServer> {
    const redis = await RedisServer.start();
    cleanup.push(() => redis.stop());
    return redis;
  }

  async function subscribe(stack: Stack, key: string, query: string): Promise<Subscriber> {
    const s = await sse(stack.url, key, { includeCurrent: true }, query);
    cleanup.push(() => s.close());
    return s;
  }

  it('a list past LIVE_MAX_SNAPSHOT_BYTES ends its streams only; Redis stays up for everyone', async () => {
    const redis = await redisFor();
    const big = cloudSeeds(100, 'big').map((e) => ({ ...e, metadata: 'm'.repeat(300) }));
    const stack = await startLiveStack({
      accounts: {
        [KEY]: { tunnels: makeTunnels(2, { seed: 41 }), endpoints: big },
        [OTHER_KEY]: { tunnels: [], endpoints: cloudSeeds(3, 'small') },
      },
      env: {
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: 'ngw-bound:',
        LIVE_MAX_SNAPSHOT_BYTES: String(MAX_BYTES),
      },
    });
    cleanup.push(() => stack.close());
    await stack.gateway.shared.redis?.whenUp();

    const tooLarge = await subscribe(stack, KEY, ENDPOINT_EVENTS());
    const tunnels = await subscribe(stack, KEY, EVENTS());
    const other = await subscribe(stack, OTHER_KEY, ENDPOINT_EVENTS());
    await until(() => tooLarge.ended !== undefined, 'the large list to end its stream');
    expect(tooLarge.ended).toBe('complete');
    expect(tooLarge.results).toEqual([
      {
        data: null,
        errors: [
          expect.objectContaining({
            message: `The account's endpoints take more than LIVE_MAX_SNAPSHOT_BYTES (${MAX_BYTES} bytes); its endpoints live events end.`,
            extensions: expect.objectContaining({ code: 'LIVE_SNAPSHOT_TOO_LARGE' }),
          }),
        ],
      },
    ]);

    // The same account's tunnels and the other account's endpoints: the list, then a change.
    await tunnels.received(2);
    await other.received(3);
    const tunnel = stack.sandbox.addTunnel(KEY);
    const endpoint = stack.sandbox.addEndpoint(OTHER_KEY, {
      url: 'https://new.example.com',
      traffic_policy: POLICY,
    });
    await tunnels.received(3);
    await other.received(4);
    expect(tunnels.seen()[2]).toBe(`ONLINE:${tunnel.id}`);
    expect(other.seen()[3]).toBe(`ONLINE:${endpoint.id}`);
    expect([tunnels.ended, other.ended]).toEqual([undefined, undefined]);

    // Redis answered throughout and holds the small snapshots, not the large one.
    expect(stack.gateway.shared.redis?.up).toBe(true);
    expect(await metric(stack.gateway, 'gateway_redis_up')).toBe(1);
    expect(stack.text()).not.toMatch(/Redis command failed|Redis connection lost/i);
    // A list too large has its own outcome: the upstream refused nothing.
    expect(
      await metric(stack.gateway, 'gateway_live_polls_total', { list: 'endpoints', outcome: 'refused' }),
    ).toBe(0);
    expect(
      await metric(stack.gateway, 'gateway_live_polls_total', { list: 'endpoints', outcome: 'too_large' }),
    ).toBeGreaterThanOrEqual(1);
    const admin = new Redis(redis.url);
    cleanup.push(() => void admin.disconnect());
    const snapshots = (await admin.keys('ngw-bound:live-snapshot:*')).sort();
    expect(snapshots).toEqual(
      [`endpoints:${keyDigest(OTHER_KEY)}`, `tunnels:${keyDigest(KEY)}`]
        .map((name) => `ngw-bound:live-snapshot:${name}`)
        .sort(),
    );
  }, 120_000);

  it('50 includeCurrent subscribers on a replica that does not poll: one full read per version', async () => {
    const redis = await redisFor();
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'ngw-shared:' };
    const poller = await startLiveStack({
      accounts: { [KEY]: { tunnels: [], endpoints: cloudSeeds(300, 'shared') } },
      env,
    });
    cleanup.push(() => poller.close());
    await poller.gateway.shared.redis?.whenUp();
    // The first replica takes the lease and stores the account's snapshot.
    await subscribe(poller, KEY, ENDPOINT_EVENTS());
    await until(async () => (await metric(poller.gateway, 'gateway_live_pollers')) === 1, 'the poller');
    const replica = await startLiveStack({ accounts: {}, env, upstreamUrl: poller.sandbox.url });
    cleanup.push(() => replica.close());
    await replica.gateway.shared.redis?.whenUp();

    // Every read of the shared store on the second replica, and those that carried the body.
    const store = replica.gateway.shared.snapshots;
    const read = store.read.bind(store);
    const bodies: string[] = [];
    let reads = 0;
    vi.spyOn(store, 'read').mockImplementation(async (name: string, known: number) => {
      const stored: StoredSnapshot | undefined = await read(name, known);
      reads += 1;
      if (stored !== undefined && 'whole' in stored) bodies.push(`${name}@${stored.version}`);
      return stored;
    });

    const subscribers = await Promise.all(
      Array.from({ length: 50 }, () => subscribe(replica, KEY, ENDPOINT_EVENTS())),
    );
    for (const s of subscribers) await s.received(300);
    const added = poller.sandbox.addEndpoint(KEY, {
      url: 'https://late.example.com',
      traffic_policy: POLICY,
    });
    for (const s of subscribers) await s.received(301);
    for (const s of subscribers) {
      expect(new Set(s.seen().slice(0, 300)).size).toBe(300);
      expect(s.seen()[300]).toBe(`ONLINE:${added.id}`);
    }
    // The replica does not poll: its subscribers read the snapshot the other one stored.
    expect(await metric(replica.gateway, 'gateway_live_pollers')).toBe(0);
    expect(reads).toBeGreaterThanOrEqual(1);
    // Each version's body crossed from Redis and was parsed once, whatever the subscribers.
    expect(bodies.length).toBeGreaterThanOrEqual(1);
    expect(bodies).toEqual([...new Set(bodies)]);
    expect(bodies.length).toBeLessThan(50);
  }, 120_000);
});
