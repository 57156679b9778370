// A live query is admitted on the upstream calls its first result may make: on an account not yet
// observed, those of the same query without @live (its first result is read from the upstream);
// once every kind it reads is observed, none (its first result is an evaluation of the observation).
// So a burst of live queries on an observed account fits any budget: here ten whose plain reads
// need 21 calls each open at once under a budget of 120 a minute, all answered, with 0 calls.
import { afterEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { type LiveClient, liveSse } from './live-query-support';
import { KEY, metric, type Stack, startLiveStack, until } from './support';

const AGENTS = `query Agents @live {
  tunnelSessions(first: 20) { nodes { id endpoints(first: 2) { nodes { id url } } } }
}`;
const plain = AGENTS.replace(' @live', '');

describe('live query admission', () => {
  let stack: Stack;
  const open: LiveClient[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await stack.close();
  });

  it('admits a live query on an observed account on 0 calls, however many open at once', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: joinedAccount(25, { seed: 40 }) },
      env: {
        UPSTREAM_RATE_LIMIT_PER_MIN: '120',
        LIVE_POLL_BUDGET_PER_MIN: '60',
        LIVE_POLL_INTERVAL_MS: '2000',
      },
    });
    // Not observed yet: the first one is admitted on its plain read's calls, and reads them.
    const first = await liveSse(stack.url, KEY, AGENTS);
    open.push(first);
    const [opening] = await first.received(1);
    expect(opening?.extensions?.upstreamCalls).toEqual({ predicted: 21, made: 21 });
    expect(opening?.data).toEqual((await stack.gql(plain)).body.data);
    await until(
      async () => (await metric(stack.gateway, 'gateway_live_polls_total', { outcome: 'complete' })) >= 2,
      'the agents and endpoints observed',
    );

    // Observed: ten at once, each on no call, though their plain reads would need 210.
    const calls = stack.sandbox.calls();
    const polled = await metric(stack.gateway, 'gateway_live_poll_upstream_calls_total');
    const burst = await Promise.all(Array.from({ length: 10 }, () => liveSse(stack.url, KEY, AGENTS)));
    open.push(...burst);
    const firsts = await Promise.all(burst.map(async (c) => (await c.received(1))[0]));
    for (const payload of firsts) {
      expect(payload?.errors).toBeUndefined();
      expect(payload?.revision).toBe(1);
      expect(payload?.extensions?.upstreamCalls).toEqual({ predicted: 0, made: 0 });
      expect(payload?.data).toEqual(opening?.data);
    }
    // Every call meanwhile was the poller's.
    expect(stack.sandbox.calls() - calls).toBe(
      (await metric(stack.gateway, 'gateway_live_poll_upstream_calls_total')) - polled,
    );
  });
});
