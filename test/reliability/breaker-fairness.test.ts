// The circuit breaker counts only what the upstream is responsible for. Timeouts the gateway's own
// deadline cut short say nothing about the upstream: one tenant's short deadlines must not open the
// circuit for every tenant. And no attempt is sent with too little time left to succeed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(2, { seed: 9 });
const TUNNEL = 'query($id: ID!) { tunnel(id: $id) { id } }';
const LIST = '{ tunnels(first: 1) { nodes { id } } }';

describe('a tenant cut short by its own deadline', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: { tunnels }, [OTHER_KEY]: { tunnels } },
      // Every operation ends after 300 ms, well inside one attempt's UPSTREAM_TIMEOUT_MS.
      env: {
        UPSTREAM_TIMEOUT_MS: '10000',
        OPERATION_TIMEOUT_MS: '300',
        BREAKER_FAILURE_THRESHOLD: '3',
        UPSTREAM_RETRIES: '0',
      },
    });
  });
  afterAll(() => h.close());
  afterEach(() => h.sandbox.clearFaults());

  it('times out as often as it likes without opening the circuit for another tenant', async () => {
    h.sandbox.setLatency('getTunnel', 2_000);
    for (let i = 0; i < 6; i += 1) {
      const { body } = await h.gql(TUNNEL, { id: tunnels[0]?.id }, { key: KEY });
      expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_TIMEOUT');
    }
    expect(h.gateway.transport.circuit).toBe('closed');
    expect(h.of('circuit')).toEqual([]);
    const other = await h.gql(LIST, undefined, { key: OTHER_KEY });
    expect(other.body).toEqual({ data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } } });
  });
});

describe('an attempt with too little time left', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: {
        OPERATION_TIMEOUT_MS: '400',
        UPSTREAM_MAX_CONCURRENCY: '1',
        UPSTREAM_RETRIES: '0',
        BREAKER_FAILURE_THRESHOLD: '0',
      },
    });
  });
  afterAll(() => h.close());

  it('is not sent: a call that got its slot with under 100 ms left ends locally', async () => {
    // The first call holds the only slot for 340 ms; the second gets it with at most 60 ms left.
    h.sandbox.setLatency('getTunnel', 340);
    const [first, second] = await Promise.all([
      h.gql(TUNNEL, { id: tunnels[0]?.id }),
      h.gql(TUNNEL, { id: tunnels[1]?.id }),
    ]);
    expect(second.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_TIMEOUT');
    expect(first.body.errors?.[0]?.extensions?.code ?? 'ok').toMatch(/^(ok|UPSTREAM_TIMEOUT)$/);
    expect(h.sandbox.calls('getTunnel')).toBe(1);
  });
});
