// Live queries' refusals and bounds: a field no observation covers is refused when the query starts,
// naming the field, with no upstream call; @live with @defer, on a mutation or a subscription is
// refused; live queries count toward the subscriptions per credential; throttle spaces payloads; a
// credential the upstream refuses ends them with UNAUTHENTICATED; the gateway's end completes them.
import { afterEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { type LiveClient, liveSse, liveWs } from './live-query-support';
import { KEY, type Stack, startLiveStack, until, wsClient } from './support';

const TUNNELS = 'query @live { tunnels(first: 3) { nodes { id } } }';

describe('live query refusals and bounds', () => {
  let stack: Stack;
  const open: LiveClient[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await stack.close();
  });

  const start = (env: Record<string, string> = {}) =>
    startLiveStack({ accounts: { [KEY]: joinedAccount(4, { seed: 39 }) }, env });

  /** The one payload of a refused live query, and the upstream calls it cost. */
  async function refused(query: string, variables: Record<string, unknown> = {}) {
    const calls = stack.sandbox.calls();
    const client = await liveSse(stack.url, KEY, query, variables);
    open.push(client);
    await until(() => client.ended !== undefined, 'the refusal to end the stream');
    return { payloads: client.payloads, status: client.status, calls: stack.sandbox.calls() - calls };
  }

  it('refuses, at start and with no call, every field no observation covers, naming it', async () => {
    stack = await start();
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'query @live { httpsEdgeRouteBackend(edgeId: "edghts_2Jb5kHhnN5JEcbC9Xz0YcqZkXJw", routeId: "edghtsrt_2Jb5kHhnN5JEcbC9Xz0YcqZkXJw") { enabled } }',
        {},
        '"httpsEdgeRouteBackend" (Query.httpsEdgeRouteBackend) cannot be live',
      ],
      [
        'query @live { tunnels(first: 2) { nodes { backends { node { id } } } } }',
        {},
        '"tunnels.nodes.backends.node" (Ref.node) cannot be live',
      ],
      [
        'query @live { tunnelSessions(first: 2) { nodes { credential { node { id } } } } }',
        {},
        '"tunnelSessions.nodes.credential.node" (Ref.node) cannot be live',
      ],
      [
        'query @live { httpsEdges(first: 2) { nodes { id } } }',
        {},
        '"httpsEdges" (Query.httpsEdges) cannot be live',
      ],
      [
        'query @live { credentials(first: 2) { nodes { id } } }',
        {},
        '"credentials" (Query.credentials) cannot be live',
      ],
      [
        'query($id: ID!) @live { node(id: $id) { id } }',
        { id: 'bkdtg_2Jb5kHhnN5JEcbC9Xz0YcqZkXJw' },
        '"node" (Query.node) cannot be live',
      ],
    ];
    for (const [query, variables, message] of cases) {
      const { payloads, calls } = await refused(query, variables);
      expect(calls).toBe(0);
      expect(payloads).toHaveLength(1);
      expect(payloads[0]?.errors?.[0]?.message).toContain(message);
      expect(payloads[0]?.errors?.[0]?.message).toContain('run this query without @live');
      expect(payloads[0]?.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it('refuses @live beside @defer, on a mutation and on a subscription, with no call', async () => {
    stack = await start();
    const calls = stack.sandbox.calls();
    const deferred = await stack.gql('query @live { tunnels(first: 1) { ... @defer { nodes { id } } } }');
    expect(deferred.body.errors?.[0]?.message).toBe('Cannot mix "@defer" with "@live".');
    const mutation = await stack.gql(
      'mutation @live { deleteEndpoint(input: { id: "ep_2Jb5kHhnN5JEcbC9Xz0YcqZkXJw" }) { __typename } }',
    );
    expect(mutation.body.errors?.[0]?.message).toBe('Directive "@live" may not be used on MUTATION.');
    const subscription = await stack.gql('subscription @live { tunnelEvents { kind } }');
    expect(subscription.body.errors?.[0]?.message).toBe('Directive "@live" may not be used on SUBSCRIPTION.');
    expect(stack.sandbox.calls() - calls).toBe(0);
  });

  it('counts live queries toward LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL, beside event subscriptions', async () => {
    stack = await start({ LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: '2' });
    const ws = wsClient(stack.wsUrl, KEY);
    const held = [await liveSse(stack.url, KEY, TUNNELS), liveWs(ws, TUNNELS)];
    open.push(...held);
    for (const c of held) await c.received(1);
    const third = await liveSse(stack.url, KEY, TUNNELS);
    open.push(third);
    await until(() => third.ended !== undefined, 'the third to be refused');
    expect(third.payloads[0]?.errors?.[0]).toMatchObject({
      message: 'At most 2 subscriptions per credential; close one to open another.',
      extensions: { code: 'RATE_LIMITED' },
    });
    held[0]?.close();
    await until(() => stack.gateway.live.count(KEY) === 1, 'the first to be released');
    const again = await liveSse(stack.url, KEY, TUNNELS);
    open.push(again);
    expect((await again.received(1))[0]?.revision).toBe(1);
    await ws.dispose();
  });

  it('spaces payloads by throttle, folding the changes between into one patch', async () => {
    stack = await start();
    const client = await liveSse(
      stack.url,
      KEY,
      'query @live(throttle: 1000) { tunnels(first: 20) { nodes { id } } }',
    );
    open.push(client);
    await client.received(1);
    const arrivals: number[] = [];
    let seen = 1;
    const watch = setInterval(() => {
      for (; seen < client.payloads.length; seen += 1) arrivals.push(performance.now());
    }, 5);
    try {
      for (let i = 0; i < 6; i += 1) {
        stack.sandbox.addTunnel(KEY);
        await until(() => stack.gateway.live.count() > 0, 'a tick');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const fresh = await stack.gql('query { tunnels(first: 20) { nodes { id } } }');
      await until(
        async () => JSON.stringify(await client.data()) === JSON.stringify(fresh.body.data),
        'the throttled query to catch up',
      );
    } finally {
      clearInterval(watch);
    }
    // Six changes about 300 ms apart, at least 1 s between payloads (less the 5 ms watch and transit).
    expect(arrivals.length).toBeLessThan(6);
    for (let i = 1; i < arrivals.length; i += 1)
      expect((arrivals[i] ?? 0) - (arrivals[i - 1] ?? 0)).toBeGreaterThan(900);
  });

  it('ends with UNAUTHENTICATED when the upstream refuses the credential, and completes on close', async () => {
    stack = await start();
    const client = await liveSse(stack.url, KEY, TUNNELS);
    open.push(client);
    await client.received(1);
    stack.sandbox.inject('listTunnels', { kind: 'status', status: 401, errorCode: 'ERR_NGROK_202' });
    await until(() => client.ended !== undefined, 'the refusal to end the query');
    expect(client.payloads.at(-1)?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(client.ended).toBe('complete');

    const other = await liveSse(stack.url, KEY, 'query @live { endpoints(first: 2) { nodes { id } } }');
    open.push(other);
    await other.received(1);
    await stack.gateway.live.close();
    await until(() => other.ended !== undefined, 'the close to complete the query');
    expect(other.ended).toBe('complete');
  });
});
