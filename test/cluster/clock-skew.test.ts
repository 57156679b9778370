// A write through one replica racing a walk of another whose wall clock is 5 s ahead, or 5 s behind
// (test/cluster/skewed-clock.mjs): ordering never reads a replica's clock, so the write is announced
// once (the walk that began before it and missed it does not undo it), and a change the upstream
// makes after it is announced by the next walks, not hidden for the skew.
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { type AnswerGate, startAnswerGate } from '../live/answer-gate';
import { cloudSeeds, POLICY } from '../live/endpoint-support';
import { ENDPOINT_EVENTS, KEY, type Subscriber, sse, until } from '../live/support';
import { bundleMain } from '../operability/process';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { dataOf, postGraphQL } from '../support/stack';
import { polling, type Replica, startReplica } from './replicas';

const CREATE = `mutation($input: CreateCloudEndpointInput!) {
  createCloudEndpoint(input: $input) { ... on CreateCloudEndpointPayload { endpoint { id } } }
}`;
const SKEWED = fileURLToPath(new URL('./skewed-clock.mjs', import.meta.url));

describe.runIf(redisTestsRun)('a write racing a walk on a replica with a skewed clock', () => {
  let main: string;
  let remove = () => {};
  let redis: RedisServer | undefined;
  let sandbox: Sandbox | undefined;
  let gate: AnswerGate | undefined;
  let replicas: Replica[] = [];
  const open: Subscriber[] = [];

  beforeAll(async () => {
    ({ main, remove } = await bundleMain());
    return () => remove();
  }, 60_000);

  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await Promise.all(replicas.map((r) => r.process.stop()));
    replicas = [];
    await gate?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  /** Complete walks of /endpoints by `replica`. */
  const walks = (replica: Replica) =>
    replica.metric('gateway_live_polls_total', { list: 'endpoints', outcome: 'complete' });

  for (const skewMs of [5_000, -5_000]) {
    it(`the walker's clock ${skewMs > 0 ? 'ahead' : 'behind'} by 5 s: the write once, the later change at the next walks`, async () => {
      redis = await RedisServer.start();
      sandbox = await startSandbox({
        rateLimit: false,
        accounts: { [KEY]: { tunnels: makeTunnels(1, { seed: 95 }), endpoints: cloudSeeds(3, 's') } },
      });
      gate = await startAnswerGate();
      gate.target = sandbox.url;
      const common = { sandbox, redisUrl: redis.url, keyPrefix: 'ngw-skew:', upstreamUrl: gate.url };
      const walker = await startReplica(main, 'walker', {
        ...common,
        env: { NODE_OPTIONS: `--import=${SKEWED}`, CLOCK_SKEW_MS: String(skewMs) },
      });
      const writer = await startReplica(main, 'writer', common);
      replicas = [walker, writer];
      const s = await sse(walker.url, KEY, {}, ENDPOINT_EVENTS());
      open.push(s);
      await until(async () => (await polling(replicas)).join() === 'walker', 'the walker to poll');
      await until(async () => (await walks(walker)) >= 1, "the walker's baseline");

      // A walk holds the list as it was before the write, until the write is announced.
      const held = gate;
      held.hold((method, url) => method === 'GET' && url.startsWith('/endpoints'));
      await until(() => held.held() === 1, 'a walk to wait for its page');
      const before = await walks(walker);
      const { body } = await postGraphQL(writer.url, CREATE, {
        input: { url: 'https://skewed.example.com', trafficPolicy: POLICY },
      });
      const made = dataOf<{ endpoint: { id: string } }>(body, 'createCloudEndpoint').endpoint.id;
      await s.received(1);
      held.release();
      // The walk that missed the write, then two begun after it.
      await until(async () => (await walks(walker)) >= before + 3, 'three more walks');
      expect(s.seen()).toEqual([`ONLINE:${made}`]);

      // A change made upstream now is the next walks' to announce.
      sandbox.touchEndpoint(KEY, made);
      const touched = await walks(walker);
      await until(async () => (await walks(walker)) >= touched + 2, 'two more walks');
      expect(s.seen()).toEqual([`ONLINE:${made}`, `UPDATED:${made}`]);
      expect(s.ended).toBeUndefined();
    }, 90_000);
  }
});
