// Writes through the gateway during an account's first walk (no snapshot yet): each is announced
// once, with the kind it is (a create ONLINE, an update UPDATED), and the first walk, which began
// before the write and missed it, neither announces it again nor undoes it.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { dataOf } from '../support/stack';
import { type AnswerGate, startAnswerGate } from './answer-gate';
import { cloudSeeds, POLICY, walked, walks } from './endpoint-support';
import { ENDPOINT_EVENTS, KEY, type Stack, type Subscriber, sse, startLiveStack, until } from './support';

const CREATE = `mutation($input: CreateCloudEndpointInput!) {
  createCloudEndpoint(input: $input) { ... on CreateCloudEndpointPayload { endpoint { id } } }
}`;
const UPDATE = `mutation($input: UpdateEndpointInput!) {
  updateEndpoint(input: $input) { ... on UpdateEndpointPayload { endpoint { id updatedAt } } }
}`;

describe("writes during an account's first walk", () => {
  let stack: Stack;
  let gate: AnswerGate;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
    await gate.close();
  });

  /** A subscriber whose subscription starts the first walk; the walk waits for its second page. */
  async function midFirstWalk(): Promise<Subscriber> {
    gate = await startAnswerGate();
    // 120 endpoints: two pages a walk.
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(1, { seed: 91 }), endpoints: cloudSeeds(120, 'f') } },
      env: { LIVE_POLL_INTERVAL_MS: '100' },
      upstreamUrl: gate.url,
    });
    gate.target = stack.sandbox.url;
    gate.hold((method, url) => method === 'GET' && url.includes('before_id='));
    const s = await sse(stack.url, KEY, {}, ENDPOINT_EVENTS());
    open.push(s);
    await until(() => gate.held() === 1, "the first walk's second page");
    expect(await walks(stack, 'endpoints')).toBe(0);
    return s;
  }

  /** Lets the first walk end, then waits for three more whole walks. */
  async function walksOn(): Promise<void> {
    gate.release();
    await walked(stack, 'endpoints', 0, 4);
  }

  it('a create is announced ONLINE once', async () => {
    const s = await midFirstWalk();
    const { body } = await stack.gql(CREATE, {
      input: { url: 'https://first-walk.example.com', trafficPolicy: POLICY },
    });
    const made = dataOf<{ endpoint: { id: string } }>(body, 'createCloudEndpoint').endpoint;
    await s.received(1);
    await walksOn();
    expect(s.seen()).toEqual([`ONLINE:${made.id}`]);
    // An includeCurrent subscriber now starts from a snapshot that holds it.
    const late = await sse(stack.url, KEY, { includeCurrent: true }, ENDPOINT_EVENTS());
    open.push(late);
    const listed = stack.sandbox.listEndpoints(KEY).map((e) => `ONLINE:${e.id}`);
    await late.received(listed.length);
    expect(late.seen()).toEqual(listed);
  });

  it('an update is announced UPDATED once (not ONLINE: the endpoint existed)', async () => {
    const s = await midFirstWalk();
    const target = stack.sandbox.listEndpoints(KEY).find((e) => e.type === 'cloud');
    const { body } = await stack.gql(UPDATE, { input: { id: target?.id, description: 'mid first walk' } });
    expect(body.data?.updateEndpoint).toMatchObject({ endpoint: { id: target?.id } });
    await s.received(1);
    await walksOn();
    expect(s.seen()).toEqual([`UPDATED:${target?.id}`]);
  });
});
