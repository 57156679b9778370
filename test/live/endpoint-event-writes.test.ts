// Endpoint writes through the gateway (createCloudEndpoint, updateEndpoint, deleteEndpoint) announced
// to the account's endpointEvents subscribers at once, without waiting for a poll, and exactly once:
// the next polls do not announce them again, and neither does the write when a poll saw it first.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { type AnswerGate, startAnswerGate } from './answer-gate';
import {
  cloudSeeds,
  ENDPOINT_FIELDS,
  graphqlEndpoint,
  listed,
  POLICY,
  walked,
  walks,
} from './endpoint-support';
import {
  ENDPOINT_EVENTS,
  KEY,
  metric,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  until,
  wsClient,
  wsSubscribe,
} from './support';

const CREATE = `mutation($input: CreateCloudEndpointInput!) {
  createCloudEndpoint(input: $input) { __typename ... on CreateCloudEndpointPayload { endpoint { ${ENDPOINT_FIELDS} } } }
}`;
const UPDATE = `mutation($input: UpdateEndpointInput!) {
  updateEndpoint(input: $input) { __typename ... on UpdateEndpointPayload { endpoint { ${ENDPOINT_FIELDS} } } }
}`;
const DELETE = `mutation($input: DeleteEndpointInput!) {
  deleteEndpoint(input: $input) { __typename ... on DeleteEndpointPayload { id } }
}`;

type Shown = Record<string, unknown> & { id: string };

describe('endpoint writes through the gateway, live', () => {
  let stack: Stack;
  let gate: AnswerGate | undefined;
  const open: Subscriber[] = [];
  const clients: { dispose(): void | Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    for (const c of clients.splice(0)) await c.dispose();
    await stack.close();
    await gate?.close();
    gate = undefined;
  });

  const start = (env: Record<string, string>, upstreamUrl?: string) =>
    startLiveStack({
      accounts: {
        [KEY]: { tunnels: makeTunnels(2, { seed: 61, kind: 'agent' }), endpoints: cloudSeeds(2, 'w') },
      },
      env,
      upstreamUrl,
    });
  /** An SSE and a graphql-ws subscriber, once the baseline walk is done. */
  const subscribers = async (fields = 'id') => {
    const client = wsClient(stack.wsUrl, KEY);
    clients.push(client);
    const pair = [
      await sse(stack.url, KEY, {}, ENDPOINT_EVENTS(fields)),
      wsSubscribe(client, {}, ENDPOINT_EVENTS(fields)),
    ];
    open.push(...pair);
    await until(() => stack.gateway.live.count(KEY) === 2, 'both subscriptions');
    await walked(stack, 'endpoints', 0, 1);
    return pair;
  };
  const write = async (query: string, field: string, input: Record<string, unknown>) => {
    const { body } = await stack.gql(query, { input });
    const result = body.data?.[field] as { __typename: string; endpoint?: Shown; id?: string };
    expect(result?.__typename, JSON.stringify(body)).toMatch(/Payload$/);
    return result;
  };
  const create = async (url: string) =>
    (await write(CREATE, 'createCloudEndpoint', { url, trafficPolicy: POLICY })).endpoint as Shown;
  const update = async (id: string, description: string) =>
    (await write(UPDATE, 'updateEndpoint', { id, description })).endpoint as Shown;
  const remove = async (id: string) => (await write(DELETE, 'deleteEndpoint', { id })).id;

  it('with a 60 s poll interval, each write reaches SSE and graphql-ws subscribers at once, exactly once', async () => {
    stack = await start({ LIVE_POLL_INTERVAL_MS: '60000' });
    const pair = await subscribers(ENDPOINT_FIELDS);
    const events = () => pair.map((s) => s.results.map((r) => r.data?.endpointEvents));
    const at = { observedAt: expect.any(String) };

    const made = await create('https://live-write.example.com');
    expect(made).toEqual(graphqlEndpoint(listed(stack, KEY, made.id)));
    for (const s of pair) await s.received(1);
    // A later subscriber's current list holds the write too: it was folded into the snapshot.
    const late = await sse(stack.url, KEY, { includeCurrent: true }, ENDPOINT_EVENTS());
    open.push(late);
    const current = stack.sandbox.listEndpoints(KEY).map((e) => `ONLINE:${e.id}`);
    expect(current).toHaveLength(5);
    await late.received(5);
    expect(late.seen()).toEqual(current);
    expect(late.seen()[0]).toBe(`ONLINE:${made.id}`);

    const changed = await update(made.id, 'changed');
    expect(changed.updatedAt).not.toBe(made.updatedAt);
    for (const s of pair) await s.received(2);
    expect(await remove(made.id)).toBe(made.id);
    for (const s of pair) await s.received(3);
    const expected = [
      { kind: 'ONLINE', endpointId: made.id, endpoint: made, ...at },
      { kind: 'UPDATED', endpointId: made.id, endpoint: changed, ...at },
      { kind: 'OFFLINE', endpointId: made.id, endpoint: changed, ...at },
    ];
    expect(events()).toEqual([expected, expected]);
    // Only the baseline walked /endpoints: every event came from the writes.
    expect(stack.sandbox.calls('listEndpoints')).toBe(1);
    expect(await walks(stack, 'endpoints')).toBe(1);
    await late.received(7);
    expect(late.seen().slice(5)).toEqual([`UPDATED:${made.id}`, `OFFLINE:${made.id}`]);
    const sent = (kind: string) =>
      metric(stack.gateway, 'gateway_live_events_sent_total', { list: 'endpoints', kind });
    // Two subscribers, plus the late one's five current endpoints and two changes.
    expect([await sent('ONLINE'), await sent('UPDATED'), await sent('OFFLINE')]).toEqual([2 + 5, 3, 3]);
  });

  it('with a short interval, the polls after each write do not announce it again', async () => {
    stack = await start({ LIVE_POLL_INTERVAL_MS: '100' });
    const pair = await subscribers();
    const expected: string[] = [];
    /** Waits for the write's event, then for two whole walks begun after it. */
    const announced = async (event: string) => {
      expected.push(event);
      for (const s of pair) await s.received(expected.length);
      await walked(stack, 'endpoints', await walks(stack, 'endpoints'), 3);
    };
    for (let round = 0; round < 3; round += 1) {
      const made = await create(`https://round-${round}.example.com`);
      await announced(`ONLINE:${made.id}`);
      await update(made.id, `round ${round}`);
      await announced(`UPDATED:${made.id}`);
      await remove(made.id);
      await announced(`OFFLINE:${made.id}`);
    }
    for (const s of pair) expect(s.seen()).toEqual(expected);
  });

  it('a poll that sees a write before its answer reaches the gateway announces it; the write adds nothing', async () => {
    gate = await startAnswerGate();
    stack = await start({ LIVE_POLL_INTERVAL_MS: '100' }, gate.url);
    gate.target = stack.sandbox.url;
    const pair = await subscribers();
    const held = gate;
    /** Runs `mutation` with its answer held until the poll has announced `event` (the id known then). */
    const polledFirst = async <T>(mutation: () => Promise<T>, event: (seen: string) => boolean) => {
      const before = pair.map((s) => s.results.length);
      held.hold();
      const answer = mutation();
      for (const [i, s] of pair.entries()) await s.received((before[i] ?? 0) + 1);
      expect(held.held()).toBe(1);
      for (const s of pair) expect(event(s.seen().at(-1) ?? '')).toBe(true);
      held.release();
      const result = await answer;
      await walked(stack, 'endpoints', await walks(stack, 'endpoints'), 3);
      return result;
    };
    const made = await polledFirst(
      () => create('https://slow-answer.example.com'),
      (e) => e.startsWith('ONLINE:'),
    );
    await polledFirst(
      () => update(made.id, 'slow'),
      (e) => e === `UPDATED:${made.id}`,
    );
    await polledFirst(
      () => remove(made.id),
      (e) => e === `OFFLINE:${made.id}`,
    );
    const expected = [`ONLINE:${made.id}`, `UPDATED:${made.id}`, `OFFLINE:${made.id}`];
    for (const s of pair) expect(s.seen()).toEqual(expected);
  });

  it('a walk begun before a write and ended after it does not undo the write', async () => {
    gate = await startAnswerGate();
    // 122 endpoints: two pages a walk.
    stack = await startLiveStack({
      accounts: {
        [KEY]: { tunnels: makeTunnels(2, { seed: 62, kind: 'agent' }), endpoints: cloudSeeds(120, 'x') },
      },
      env: { LIVE_POLL_INTERVAL_MS: '100' },
      upstreamUrl: gate.url,
    });
    gate.target = stack.sandbox.url;
    const pair = await subscribers();
    const held = gate;
    const expected: string[] = [];
    /** `mutation` while a walk waits for its second page; the page comes once the write is announced. */
    const midWalk = async <T>(mutation: () => Promise<T>, event: (result: T) => string) => {
      held.hold((method, url) => method === 'GET' && url.includes('before_id='));
      await until(() => held.held() === 1, "a walk's second page");
      const result = await mutation();
      expected.push(event(result));
      for (const s of pair) await s.received(expected.length);
      held.release();
      await walked(stack, 'endpoints', await walks(stack, 'endpoints'), 3);
      return result;
    };
    const made = await midWalk(
      () => create('https://mid-walk.example.com'),
      (e) => `ONLINE:${e.id}`,
    );
    await midWalk(
      () => update(made.id, 'mid-walk'),
      (e) => `UPDATED:${e.id}`,
    );
    await midWalk(
      () => remove(made.id),
      (id) => `OFFLINE:${id}`,
    );
    for (const s of pair) expect(s.seen()).toEqual(expected);
    expect(expected).toEqual([`ONLINE:${made.id}`, `UPDATED:${made.id}`, `OFFLINE:${made.id}`]);
  });
});
