// What keeps load off a failing or limited upstream: the circuit breaker, the per-credential cap
// with its bounded queue, the bounded keep-alive pool, and retries of writes that never left.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, makeTunnels, newId, type Sandbox, startSandbox } from '../../src/sandbox';
import { sleep } from '../support/fixtures';
import { closedPort, type Relay } from '../support/relay';
import { KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(8, { seed: 7 });
const ids = tunnels.map((t) => t.id);
const TUNNEL = 'query($id: ID!) { tunnel(id: $id) { id } }';
const LIST = '{ tunnels(first: 1) { nodes { id } } }';
const CIRCUIT_OPEN = 'The ngrok API is failing; the gateway pauses calls to it for a moment. Retry shortly.';
const QUEUE_FULL = 'Too many simultaneous ngrok API calls for this credential; retry shortly.';

/** One query reading `n` tunnels by id through aliases, so they are fetched in parallel. */
const aliases = (n: number) =>
  `{ ${ids
    .slice(0, n)
    .map((id, i) => `t${i}: tunnel(id: "${id}") { id }`)
    .join(' ')} }`;

describe('circuit breaker', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: { tunnels } },
      // Refused credentials are remembered by default (refused-credentials.test.ts); here the 403 must reach the breaker.
      env: {
        BREAKER_FAILURE_THRESHOLD: '3',
        BREAKER_COOLDOWN_MS: '300',
        UPSTREAM_RETRIES: '0',
        REFUSED_CREDENTIAL_TTL_MS: '0',
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    h.sandbox.clearFaults();
    // Each test starts with a closed circuit: one healthy call once any cool-down is over.
    if (h.gateway.transport.circuit !== 'closed') {
      await sleep(350);
      await h.gql(TUNNEL, { id: ids[0] });
    }
    h.sandbox.resetCalls();
    h.events.length = 0;
  });

  /** Three failures in a row: an outage status, a dropped connection, a proxy's error page. */
  async function openCircuit() {
    h.sandbox.inject('getTunnel', { kind: 'status', status: 503 }, { kind: 'drop' }, { kind: 'html' });
    for (let i = 0; i < 3; i += 1) {
      expect(h.gateway.transport.circuit).toBe('closed');
      const { body } = await h.gql(TUNNEL, { id: ids[0] });
      expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    }
    expect(h.gateway.transport.circuit).toBe('open');
    expect(h.sandbox.calls()).toBe(3);
  }

  it('after repeated failures it answers UPSTREAM_UNAVAILABLE at once, with no upstream call', async () => {
    await openCircuit();
    expect(h.of('circuit')).toEqual(['open']);
    const one = await h.gql(TUNNEL, { id: ids[1] });
    expect(one.body).toEqual({
      data: { tunnel: null },
      errors: [
        {
          message: CIRCUIT_OPEN,
          locations: [{ line: 1, column: 19 }],
          path: ['tunnel'],
          extensions: { code: 'UPSTREAM_UNAVAILABLE' },
        },
      ],
    });
    const list = await h.gql(LIST);
    expect(list.body).toMatchObject({ data: null, errors: [{ message: CIRCUIT_OPEN, path: ['tunnels'] }] });
    expect(h.sandbox.calls()).toBe(3);
    // Refused calls are not attempts: nothing was sent.
    expect(h.of('attempt')).toHaveLength(3);
  });

  it('after the cool-down one probe goes through; its success closes the circuit', async () => {
    await openCircuit();
    await sleep(350);
    const { body } = await h.gql(TUNNEL, { id: ids[2] });
    expect(body).toEqual({ data: { tunnel: { id: ids[2] } } });
    expect(h.of('circuit')).toEqual(['open', 'half-open', 'closed']);
    const next = await h.gql(LIST);
    expect(next.body).toEqual({ data: { tunnels: { nodes: [{ id: ids[0] }] } } });
    expect(h.sandbox.calls()).toBe(5);
  });

  it('a failed probe opens the circuit for another cool-down', async () => {
    await openCircuit();
    await sleep(350);
    h.sandbox.inject('getTunnel', { kind: 'status', status: 503 });
    const probe = await h.gql(TUNNEL, { id: ids[0] });
    expect(probe.body.errors?.[0]?.extensions).toMatchObject({ upstream: { status: 503 } });
    const refused = await h.gql(TUNNEL, { id: ids[0] });
    expect(refused.body.errors?.[0]?.message).toBe(CIRCUIT_OPEN);
    expect(h.of('circuit')).toEqual(['open', 'half-open', 'open']);
    expect(h.sandbox.calls()).toBe(4);
  });

  it('answers that are refusals (404, 403, 429, 400) do not count as failures', async () => {
    h.sandbox.inject(
      'getTunnel',
      { kind: 'status', status: 404 },
      { kind: 'status', status: 403, errorCode: 'ERR_NGROK_203' },
      { kind: 'rateLimit', retryAfter: 0 },
      { kind: 'status', status: 400 },
    );
    for (let i = 0; i < 4; i += 1) await h.gql(TUNNEL, { id: ids[0] });
    expect(h.sandbox.calls()).toBe(4);
    expect(h.gateway.transport.circuit).toBe('closed');
    expect(h.of('circuit')).toEqual([]);
  });

  it('a success resets the count: failures must be consecutive', async () => {
    h.sandbox.inject(
      'getTunnel',
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'pass' },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    );
    for (let i = 0; i < 5; i += 1) await h.gql(TUNNEL, { id: ids[0] });
    expect(h.gateway.transport.circuit).toBe('closed');
  });
});

describe('per-credential concurrency cap', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: { tunnels }, [OTHER_KEY]: { tunnels } },
      env: { UPSTREAM_MAX_CONCURRENCY: '2', UPSTREAM_QUEUE_LIMIT: '3' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.clearFaults();
    h.sandbox.setLatency('getTunnel', 60);
    h.sandbox.resetCalls();
    h.events.length = 0;
  });

  it('excess calls wait their turn: all answered, never more than 2 at the upstream', async () => {
    const { body } = await h.gql(aliases(5));
    expect(body).toEqual({ data: Object.fromEntries(ids.slice(0, 5).map((id, i) => [`t${i}`, { id }])) });
    expect(h.sandbox.calls('getTunnel')).toBe(5);
    expect(h.sandbox.peakConcurrency(KEY)).toBe(2);
  });

  it('past the queue bound a call fails fast with RATE_LIMITED and is never sent', async () => {
    // 2 running + 3 waiting; the 6th, 7th and 8th are refused.
    const { body } = await h.gql(aliases(8));
    const data = body.data as Record<string, unknown>;
    expect(Object.keys(data).filter((k) => data[k] !== null)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(body.errors?.map((e) => [e.path, e.message, e.extensions])).toEqual(
      ['t5', 't6', 't7'].map((k) => [[k], QUEUE_FULL, { code: 'RATE_LIMITED', retryAfter: 1 }]),
    );
    expect(h.sandbox.calls('getTunnel')).toBe(5);
    expect(h.of('rateLimited')).toEqual(
      Array(3).fill({ route: 'getTunnel', source: 'gateway', retryAfter: 1 }),
    );
    // The queue drained: the next operation is served in full.
    const next = await h.gql(aliases(2));
    expect(next.body.errors).toBeUndefined();
  });

  it('each credential has its own cap', async () => {
    const [mine, theirs] = await Promise.all([
      h.gql(aliases(4), {}, { key: KEY }),
      h.gql(aliases(4), {}, { key: OTHER_KEY }),
    ]);
    expect(mine.body.errors).toBeUndefined();
    expect(theirs.body.errors).toBeUndefined();
    expect(h.sandbox.peakConcurrency(KEY)).toBe(2);
    expect(h.sandbox.peakConcurrency(OTHER_KEY)).toBe(2);
    expect(h.sandbox.peakConcurrency()).toBe(4);
  });
});

describe('keep-alive pool', () => {
  let h: Stack;
  afterEach(() => h.close());
  const relay = (): Relay => h.relay as Relay;
  const start = async (env: Record<string, string>) => {
    h = await startStack({ accounts: { [KEY]: { tunnels } }, env, relay: true });
  };

  it('never opens more than UPSTREAM_CONNECTIONS sockets', async () => {
    await start({ UPSTREAM_CONNECTIONS: '2', UPSTREAM_MAX_CONCURRENCY: '8' });
    h.sandbox.setLatency('getTunnel', 50);
    const { body } = await h.gql(aliases(6));
    expect(body.errors).toBeUndefined();
    expect(h.sandbox.calls('getTunnel')).toBe(6);
    expect(h.sandbox.peakConcurrency()).toBe(2);
    expect(relay().connections).toBe(2);
  });

  it('reuses an idle socket within UPSTREAM_KEEPALIVE_MS', async () => {
    await start({ UPSTREAM_KEEPALIVE_MS: '5000' });
    await h.gql(TUNNEL, { id: ids[0] });
    await sleep(150);
    const { body } = await h.gql(TUNNEL, { id: ids[1] });
    expect(body).toEqual({ data: { tunnel: { id: ids[1] } } });
    expect(relay().connections).toBe(1);
  });

  it('closes an idle socket itself after UPSTREAM_KEEPALIVE_MS, before the upstream would', async () => {
    await start({ UPSTREAM_KEEPALIVE_MS: '100' });
    await h.gql(TUNNEL, { id: ids[0] });
    await sleep(400);
    expect(relay().closedByClient).toBe(1);
    const { body } = await h.gql(TUNNEL, { id: ids[1] });
    expect(body).toEqual({ data: { tunnel: { id: ids[1] } } });
    expect(relay().connections).toBe(2);
  });
});

describe('writes that never reached the upstream', () => {
  const edge = newId('edghts');
  const route = newId('edghtsrt');
  const backendA = newId('bkdtg');
  const backendB = newId('bkdtg');
  const seed = (): AccountSeed => ({
    edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backendA, enabled: true } }] }],
    backends: [backendA, backendB],
  });
  const REPLACE = `mutation($input: ReplaceHttpsEdgeRouteBackendInput!) {
    replaceHttpsEdgeRouteBackend(input: $input) {
      ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { backend { id } } }
    }
  }`;
  const input = { edgeId: edge, routeId: route, backendId: backendB };

  it('connection refused on every attempt: retried, then UPSTREAM_UNAVAILABLE', async () => {
    const h = await startStack({
      upstreamUrl: `http://127.0.0.1:${await closedPort()}`,
      env: { UPSTREAM_RETRY_BASE_MS: '10' },
    });
    try {
      const { body } = await h.gql(REPLACE, { input });
      expect(body).toMatchObject({
        data: null,
        errors: [{ message: 'The ngrok API is unavailable.', extensions: { code: 'UPSTREAM_UNAVAILABLE' } }],
      });
      expect(h.of('retry').map((r) => [r.route, r.method, r.attempt])).toEqual([
        ['replaceBackend', 'PUT', 2],
        ['replaceBackend', 'PUT', 3],
      ]);
      expect(h.of('attempt')).toHaveLength(3);
    } finally {
      await h.close();
    }
  });

  it('an upstream that comes up during the backoff gets the write exactly once', async () => {
    const port = await closedPort();
    let upstream: Sandbox | undefined;
    let starting: Promise<Sandbox> | undefined;
    const h = await startStack({
      upstreamUrl: `http://127.0.0.1:${port}`,
      env: { UPSTREAM_RETRY_BASE_MS: '400' },
      hooks: {
        // The first attempt was refused: bring the upstream up on that port before the retry.
        retry: () => {
          starting ??= startSandbox({
            edgesWritable: true,
            port,
            rateLimit: false,
            accounts: { [KEY]: seed() },
          });
        },
      },
    });
    try {
      const { body } = await h.gql(REPLACE, { input });
      upstream = await starting;
      expect(body).toEqual({
        data: { replaceHttpsEdgeRouteBackend: { backendModule: { backend: { id: backendB } } } },
      });
      expect(h.of('retry')).toHaveLength(1);
      expect(upstream?.calls('replaceBackend')).toBe(1);
      expect(upstream?.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backendB);
    } finally {
      await h.close();
      await upstream?.close();
    }
  });
});
