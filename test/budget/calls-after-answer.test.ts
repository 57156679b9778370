// No upstream call outlives its operation's answer: a fan-out whose calls overflow the per-credential
// queue fails a field, and graphql-js answers without waiting for the calls still queued behind it.
// Those are refused unsent once the operation has answered, and the calls on their way are awaited,
// so the answer's upstreamCalls.made is every call the stand-in saw, then and later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../src/sandbox';
import { until } from '../live/support';
import { postGraphQL, type Stack, startStack } from '../support/stack';

const FAN_OUT = '{ credentials(first: 100) { nodes { id tunnelSessions(first: 2) { nodes { id } } } } }';

describe('calls after an answer', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { k: demoData({ tunnels: 130 }) },
      env: {
        UPSTREAM_MAX_CONCURRENCY: '2',
        UPSTREAM_QUEUE_LIMIT: '3',
        MAX_UPSTREAM_CALLS_PER_OPERATION: '1000',
        // One failure would open the circuit: a call refused after the answer is none.
        BREAKER_FAILURE_THRESHOLD: '1',
      },
    });
  });
  afterAll(() => stack.close());

  it('a fan-out refused past the queue answers with every call it made, and none goes out after', async () => {
    const answer = await postGraphQL(stack.url, FAN_OUT, {}, { key: 'k' });
    expect(answer.body.errors?.map((e) => e.extensions?.code)).toContain('RATE_LIMITED');
    const made = answer.upstreamCalls?.made ?? -1;
    expect(made).toBeGreaterThan(0);
    expect(stack.sandbox.calls(undefined, 'k')).toBe(made);
    // A moment later (several upstream round trips), still nothing more.
    const seen = stack.sandbox.calls(undefined, 'k');
    await until(
      async () => (await postGraphQL(stack.url, '{ __typename }', {}, { key: 'k' })).status === 200,
      'a round trip',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stack.sandbox.calls(undefined, 'k')).toBe(seen);
    // The calls refused unsent said nothing about the upstream: the circuit stayed closed.
    const next = await postGraphQL(stack.url, '{ endpoints(first: 1) { nodes { id } } }', {}, { key: 'k' });
    expect(next.body.errors).toBeUndefined();
    expect(next.upstreamCalls).toEqual({ predicted: 1, made: 1 });
  });
});
