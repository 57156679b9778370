// The fewest upstream calls: identical concurrent reads of one credential share one in-flight
// call across requests (never across credentials), and an operation's reads cost one call per
// distinct resource at most, none for what a list in the same operation already returned.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, makeTunnels, newId } from '../../src/sandbox';
import { KEY, OTHER_KEY, type Stack, startStack, TUNNEL_FIELDS } from '../support/stack';

const seed = (tunnelSeed: number): AccountSeed => ({ tunnels: makeTunnels(30, { seed: tunnelSeed }) });
const LIST = `query { tunnels(first: 20) { edges { node { ${TUNNEL_FIELDS} } } } }`;
const ONE = 'query($id: ID!) { tunnel(id: $id) { id region } }';

const newestIds = (account: AccountSeed): string[] =>
  (account.tunnels ?? [])
    .map((t) => t.id)
    .sort()
    .reverse();

describe('upstream calls per operation', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed(1), [OTHER_KEY]: seed(2) },
    });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.resetCalls();
  });

  /** Sends the first operation, waits until its call is at the upstream, then sends the rest. */
  async function whileFirstInFlight<T>(first: () => Promise<T>, rest: (() => Promise<T>)[]): Promise<T[]> {
    const pending = [first()];
    while (stack.sandbox.calls() === 0) await sleep(5);
    pending.push(...rest.map((send) => send()));
    return Promise.all(pending);
  }

  it('coalesces identical concurrent reads of one credential into one in-flight upstream call', async () => {
    stack.sandbox.setLatency('listTunnels', 400);
    const answers = await whileFirstInFlight(
      () => stack.gql(LIST),
      Array.from({ length: 4 }, () => () => stack.gql(LIST)),
    );
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
    expect(stack.sandbox.peakConcurrency()).toBe(1);
    for (const answer of answers) {
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body).toEqual(answers[0]?.body);
    }
  });

  it('coalesces concurrent tunnel(id) reads of one credential across requests', async () => {
    const [id] = newestIds(stack.sandbox.account(KEY));
    stack.sandbox.setLatency('getTunnel', 400);
    const answers = await whileFirstInFlight(
      () => stack.gql(ONE, { id }),
      [() => stack.gql(ONE, { id }), () => stack.gql(ONE, { id })],
    );
    expect(stack.sandbox.calls('getTunnel')).toBe(1);
    for (const answer of answers)
      expect(answer.body.data).toEqual({ tunnel: { id, region: expect.any(String) } });
  });

  it('a read that starts after a write never joins a read that was in flight before it', async () => {
    const edgeId = newId('edghts');
    const routeId = newId('edghtsrt');
    const [before, after] = [newId('bkdtg'), newId('bkdtg')];
    const key = 'writer-key-0123456789';
    stack.sandbox.seed(key, {
      edges: [{ id: edgeId, routes: [{ id: routeId, backend: { backendId: before, enabled: true } }] }],
      backends: [before, after],
    });
    const READ = `{ httpsEdgeRouteBackend(edgeId: "${edgeId}", routeId: "${routeId}") { backend { id } } }`;
    stack.sandbox.setLatency('getBackend', 300);
    const early = stack.gql(READ, {}, { key });
    while (stack.sandbox.calls('getBackend') === 0) await sleep(5);
    const write = await stack.gql(
      `mutation { replaceHttpsEdgeRouteBackend(input: { edgeId: "${edgeId}", routeId: "${routeId}", backendId: "${after}" }) { __typename } }`,
      {},
      { key },
    );
    expect(write.body.data).toEqual({
      replaceHttpsEdgeRouteBackend: { __typename: 'ReplaceHttpsEdgeRouteBackendPayload' },
    });
    const late = await stack.gql(READ, {}, { key });
    expect(late.body.data).toEqual({ httpsEdgeRouteBackend: { backend: { id: after } } });
    // The stand-in reads its state after the added latency, so the early read may see either.
    expect((await early).body.errors).toBeUndefined();
    expect(stack.sandbox.calls('getBackend')).toBe(2);
  });

  it('does not coalesce the same read of two credentials: each gets its own data', async () => {
    stack.sandbox.setLatency('listTunnels', 400);
    const [mine, theirs] = await whileFirstInFlight(
      () => stack.gql(LIST, undefined, { key: KEY }),
      [() => stack.gql(LIST, undefined, { key: OTHER_KEY })],
    );
    expect(stack.sandbox.calls('listTunnels', KEY)).toBe(1);
    expect(stack.sandbox.calls('listTunnels', OTHER_KEY)).toBe(1);
    const firstId = (r: typeof mine) =>
      ((r?.body.data?.tunnels ?? { edges: [] }) as { edges: { node: { id: string } }[] }).edges[0]?.node.id;
    expect(firstId(mine)).toBe(newestIds(stack.sandbox.account(KEY))[0]);
    expect(firstId(theirs)).toBe(newestIds(stack.sandbox.account(OTHER_KEY))[0]);
  });

  it('does not coalesce reads that differ (another page)', async () => {
    stack.sandbox.setLatency('listTunnels', 200);
    await whileFirstInFlight(
      () => stack.gql('query { tunnels(first: 2) { edges { node { id } } } }'),
      [() => stack.gql('query { tunnels(first: 3) { edges { node { id } } } }')],
    );
    expect(stack.sandbox.calls('listTunnels')).toBe(2);
  });

  it('ten tunnel(id) aliases of distinct ids: ten upstream calls; repeated ids: one each', async () => {
    const ids = newestIds(stack.sandbox.account(KEY)).slice(20, 30);
    const query = `query { ${ids.map((id, i) => `t${i}: tunnel(id: "${id}") { id }`).join(' ')} again: tunnel(id: "${ids[0]}") { id } }`;
    const { body } = await stack.gql(query);
    expect(body.errors).toBeUndefined();
    expect(Object.keys(body.data ?? {})).toHaveLength(11);
    expect(stack.sandbox.calls('getTunnel')).toBe(10);
    expect(stack.sandbox.calls()).toBe(10);
  });

  it('a list and reads of listed ids in one operation: one upstream call', async () => {
    const listed = newestIds(stack.sandbox.account(KEY)).slice(0, 5);
    const { body } = await stack.gql(
      `query($ids: [ID!]!) { tunnels(first: 20) { edges { node { id } } } nodes(ids: $ids) { id } one: tunnel(id: "${listed[4]}") { id } }`,
      { ids: listed },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.nodes).toEqual(listed.map((id) => ({ id })));
    expect(stack.sandbox.calls()).toBe(1);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
  });

  it('nodes(ids) calls once per existing or unknown tunnel id and never for ids of other types', async () => {
    const ids = [
      ...newestIds(stack.sandbox.account(KEY)).slice(20, 24),
      newId('tn'),
      newId('edghtsrt'),
      newId('usr'),
    ];
    const { body } = await stack.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(body.errors).toBeUndefined();
    expect(((body.data?.nodes ?? []) as unknown[]).filter((n) => n !== null)).toHaveLength(4);
    expect(stack.sandbox.calls()).toBe(5);
  });
});
