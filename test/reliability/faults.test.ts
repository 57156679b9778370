// Each upstream fault injected into the stand-in: the exact GraphQL answer, the number of upstream
// attempts, and a gateway that still serves the next request.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, type Fault, makeTunnels, newId } from '../../src/sandbox';
import { DELETE, REPLACE, sleep } from '../support/fixtures';
import { KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(4, { seed: 41 });
const [t0, t1] = tunnels as [(typeof tunnels)[0], (typeof tunnels)[0]];
const edge = newId('edghts');
const route = newId('edghtsrt');
const backendA = newId('bkdtg');
const backendB = newId('bkdtg');
const seed = (): AccountSeed => ({
  tunnels,
  edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backendA, enabled: true } }] }],
  backends: [backendA, backendB],
});

const TUNNEL = 'query($id: ID!) { tunnel(id: $id) { id } }';

const OP_ID = expect.stringMatching(/^op_[A-Za-z0-9]+$/);
const MESSAGES = {
  unavailable: 'The ngrok API is unavailable.',
  timeout: 'The ngrok API did not answer in time.',
  badResponse: 'The ngrok API sent a response the gateway could not read.',
  rateLimited: 'The ngrok API rate limit was reached; retry later.',
  outcomeUnknown:
    'The ngrok API did not confirm the change, which may have been applied; read it back before retrying.',
  paused:
    'The ngrok API rate-limited this credential; the gateway sends nothing for it until Retry-After has passed.',
};

/** A retryAfter in whole seconds a moment after a pause of `seconds` began. */
const near = (seconds: number) => (value: unknown) =>
  typeof value === 'number' && value <= seconds && value >= seconds - 1;

/** The answer to TUNNEL when the call failed with `extensions`. */
const failedTunnel = (message: string, extensions: Record<string, unknown>) => ({
  data: { tunnel: null },
  errors: [{ message, locations: [{ line: 1, column: 19 }], path: ['tunnel'], extensions }],
});

const backendOf = (h: Stack) => h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId;

describe('upstream faults', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: seed() },
      // The breaker has its own tests; here it would open after a few faults in a row.
      env: { UPSTREAM_TIMEOUT_MS: '300', BREAKER_FAILURE_THRESHOLD: '0', UPSTREAM_RETRY_BASE_MS: '10' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.clearFaults();
    h.sandbox.seed(KEY, seed());
    h.sandbox.resetCalls();
    h.events.length = 0;
  });

  /** The gateway still answers a fresh read correctly after the fault. */
  async function stillServes() {
    const { body } = await h.gql(TUNNEL, { id: t1.id });
    expect(body).toEqual({ data: { tunnel: { id: t1.id } } });
  }

  describe('deadlines', () => {
    it('a hung upstream call ends in UPSTREAM_TIMEOUT after UPSTREAM_TIMEOUT_MS, not retried', async () => {
      h.sandbox.inject('getTunnel', { kind: 'hang' });
      const { status, body } = await h.gql(TUNNEL, { id: t0.id });
      expect(status).toBe(200);
      expect(body).toEqual(failedTunnel(MESSAGES.timeout, { code: 'UPSTREAM_TIMEOUT' }));
      expect(h.sandbox.calls('getTunnel')).toBe(1);
      expect(h.of('retry')).toEqual([]);
      await stillServes();
    });

    it('a hung write ends in UPSTREAM_TIMEOUT, sent once, its outcome unknown', async () => {
      h.sandbox.inject('deleteBackend', { kind: 'hang' });
      const { body } = await h.gql(DELETE, { input: { edgeId: edge, routeId: route } });
      expect(body).toMatchObject({
        data: null,
        errors: [
          { message: MESSAGES.outcomeUnknown, extensions: { code: 'UPSTREAM_TIMEOUT', outcome: 'UNKNOWN' } },
        ],
      });
      expect(h.sandbox.calls('deleteBackend')).toBe(1);
      expect(backendOf(h)).toBe(backendA);
      await stillServes();
    });
  });

  describe('reads are retried on connection errors, 502/503/504 and 429', () => {
    const recovered: [string, Fault[]][] = [
      [
        '503 twice',
        [
          { kind: 'status', status: 503 },
          { kind: 'status', status: 503 },
        ],
      ],
      [
        '502 then 504',
        [
          { kind: 'status', status: 502 },
          { kind: 'status', status: 504 },
        ],
      ],
      ["a proxy's HTML 502 page", [{ kind: 'html' }]],
      ['a dropped connection', [{ kind: 'drop' }]],
      ['429 with Retry-After: 0', [{ kind: 'rateLimit', retryAfter: 0 }]],
      ['429 without Retry-After', [{ kind: 'rateLimit' }]],
    ];
    for (const [name, faults] of recovered) {
      it(`${name}: the data, after ${faults.length + 1} attempts`, async () => {
        h.sandbox.inject('getTunnel', ...faults);
        const { body } = await h.gql(TUNNEL, { id: t0.id });
        expect(body).toEqual({ data: { tunnel: { id: t0.id } } });
        expect(h.sandbox.calls('getTunnel')).toBe(faults.length + 1);
        expect(h.of('retry').map((r) => r.attempt)).toEqual(faults.map((_, i) => i + 2));
      });
    }

    it('503 on every attempt: UPSTREAM_UNAVAILABLE after 1 + UPSTREAM_RETRIES (2) attempts', async () => {
      h.sandbox.inject('getTunnel', ...Array<Fault>(3).fill({ kind: 'status', status: 503 }));
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(
        failedTunnel(MESSAGES.unavailable, {
          code: 'UPSTREAM_UNAVAILABLE',
          upstream: { status: 503, errorCode: null, operationId: OP_ID },
        }),
      );
      expect(h.sandbox.calls('getTunnel')).toBe(3);
      await stillServes();
    });

    it('dropped on every attempt: UPSTREAM_UNAVAILABLE without upstream details, 3 attempts', async () => {
      h.sandbox.inject('getTunnel', { kind: 'drop' }, { kind: 'drop' }, { kind: 'drop' });
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(failedTunnel(MESSAGES.unavailable, { code: 'UPSTREAM_UNAVAILABLE' }));
      expect(h.sandbox.calls('getTunnel')).toBe(3);
      await stillServes();
    });

    it('429 on every attempt: RATE_LIMITED with retryAfter and the upstream code', async () => {
      h.sandbox.inject('getTunnel', ...Array<Fault>(3).fill({ kind: 'rateLimit', retryAfter: 0 }));
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(
        failedTunnel(MESSAGES.rateLimited, {
          code: 'RATE_LIMITED',
          // Retry-After: 0 is read as 1 s: every retryAfter a client sees is 1..60.
          retryAfter: 1,
          upstream: { status: 429, errorCode: 'ERR_NGROK_226', operationId: OP_ID },
        }),
      );
      expect(h.sandbox.calls('getTunnel')).toBe(3);
      expect(h.of('rateLimited')).toEqual(
        Array(3).fill({ route: 'getTunnel', source: 'upstream', retryAfter: 1 }),
      );
    });

    it('500 and 4xx are answers, not outages: not retried', async () => {
      h.sandbox.inject('getTunnel', { kind: 'status', status: 500 });
      const { body } = await h.gql(TUNNEL, { id: t0.id });
      expect(body).toEqual(
        failedTunnel(MESSAGES.unavailable, {
          code: 'UPSTREAM_UNAVAILABLE',
          upstream: { status: 500, errorCode: null, operationId: OP_ID },
        }),
      );
      h.sandbox.inject('getTunnel', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_215' });
      const second = await h.gql(TUNNEL, { id: t0.id });
      expect(second.body.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        upstream: { status: 400, errorCode: 'ERR_NGROK_215' },
      });
      expect(h.sandbox.calls('getTunnel')).toBe(2);
      expect(h.of('retry')).toEqual([]);
    });
  });

  describe('writes are never retried once sent', () => {
    const sentFaults: [string, Fault, Record<string, unknown>][] = [
      ['503', { kind: 'status', status: 503 }, { code: 'UPSTREAM_UNAVAILABLE', upstream: { status: 503 } }],
      ['a dropped connection', { kind: 'drop' }, { code: 'UPSTREAM_UNAVAILABLE' }],
      ['429', { kind: 'rateLimit', retryAfter: 0 }, { code: 'RATE_LIMITED', retryAfter: 1 }],
      ['an HTML 502 page', { kind: 'html' }, { code: 'UPSTREAM_UNAVAILABLE', upstream: { status: 502 } }],
    ];
    for (const [name, fault, extensions] of sentFaults) {
      it(`PUT answered with ${name}: one attempt, the error, the state untouched`, async () => {
        h.sandbox.inject('replaceBackend', fault);
        const { body } = await h.gql(REPLACE, {
          input: { edgeId: edge, routeId: route, backendId: backendB },
        });
        expect(body).toMatchObject({ data: null, errors: [{ extensions }] });
        expect(h.sandbox.calls('replaceBackend')).toBe(1);
        expect(h.of('retry')).toEqual([]);
        expect(backendOf(h)).toBe(backendA);
      });
    }

    it('DELETE answered with 504: one attempt', async () => {
      h.sandbox.inject('deleteBackend', { kind: 'status', status: 504 });
      const { body } = await h.gql(DELETE, { input: { edgeId: edge, routeId: route } });
      expect(body).toMatchObject({ data: null, errors: [{ extensions: { code: 'UPSTREAM_UNAVAILABLE' } }] });
      expect(h.sandbox.calls('deleteBackend')).toBe(1);
      expect(backendOf(h)).toBe(backendA);
    });

    it('a write whose answer was damaged after it ran: UPSTREAM_BAD_RESPONSE, outcome unknown, applied once', async () => {
      h.sandbox.inject('replaceBackend', { kind: 'truncatedJson' });
      const { body } = await h.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backendB } });
      expect(body).toMatchObject({
        data: null,
        errors: [
          {
            message: MESSAGES.outcomeUnknown,
            extensions: { code: 'UPSTREAM_BAD_RESPONSE', outcome: 'UNKNOWN' },
          },
        ],
      });
      expect(h.sandbox.calls('replaceBackend')).toBe(1);
      expect(backendOf(h)).toBe(backendB);
    });
  });

  describe('malformed upstream answers are UPSTREAM_BAD_RESPONSE, not retried', () => {
    const kinds: [Fault, string][] = [
      [{ kind: 'malformedJson' }, MESSAGES.badResponse],
      [{ kind: 'truncatedJson' }, MESSAGES.badResponse],
      [{ kind: 'wrongContentType' }, MESSAGES.badResponse],
      [
        { kind: 'missingField' },
        'The ngrok API sent a response the gateway could not read (tunnel.id is missing).',
      ],
    ];
    for (const [fault, message] of kinds) {
      it(fault.kind, async () => {
        h.sandbox.inject('getTunnel', fault);
        const { status, body } = await h.gql(TUNNEL, { id: t0.id });
        expect(status).toBe(200);
        // A body that cannot be read at all keeps the upstream's details; a parsed one that lacks a field has none.
        const upstream =
          fault.kind === 'missingField'
            ? {}
            : { upstream: { status: 200, errorCode: null, operationId: OP_ID } };
        expect(body).toEqual(failedTunnel(message, { code: 'UPSTREAM_BAD_RESPONSE', ...upstream }));
        expect(h.sandbox.calls('getTunnel')).toBe(1);
        await stillServes();
      });
    }

    it('a list with a missing field fails the whole connection, and the next list works', async () => {
      h.sandbox.inject('listTunnels', { kind: 'missingField' });
      const bad = await h.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(bad.body).toMatchObject({
        data: null,
        errors: [{ extensions: { code: 'UPSTREAM_BAD_RESPONSE' } }],
      });
      const good = await h.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(good.body).toEqual({ data: { tunnels: { nodes: [{ id: t0.id }, { id: t1.id }] } } });
    });
  });

  describe('partial failure', () => {
    it('a field whose call failed is null with its error; the rest of the data comes back', async () => {
      h.sandbox.inject('getBackend', { kind: 'status', status: 500 });
      const { status, body } = await h.gql(
        `query($edgeId: ID!, $routeId: ID!) {
          tunnels(first: 1) { nodes { id } }
          httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled }
        }`,
        { edgeId: edge, routeId: route },
      );
      expect(status).toBe(200);
      expect(body).toEqual({
        data: { tunnels: { nodes: [{ id: t0.id }] }, httpsEdgeRouteBackend: null },
        errors: [
          {
            message: MESSAGES.unavailable,
            locations: [{ line: 3, column: 11 }],
            path: ['httpsEdgeRouteBackend'],
            extensions: {
              code: 'UPSTREAM_UNAVAILABLE',
              upstream: { status: 500, errorCode: null, operationId: OP_ID },
            },
          },
        ],
      });
    });

    it('one failing alias among several: only that one is null', async () => {
      h.sandbox.inject('getTunnel', { kind: 'pass' }, { kind: 'hang' }, { kind: 'pass' });
      const { body } = await h.gql(
        `query($a: ID!, $b: ID!, $c: ID!) { a: tunnel(id: $a) { id } b: tunnel(id: $b) { id } c: tunnel(id: $c) { id } }`,
        { a: t0.id, b: t1.id, c: tunnels[2]?.id },
      );
      // Which of the three parallel calls meets the hang depends on arrival order at the stand-in.
      const data = body.data as Record<string, { id: string } | null>;
      expect(Object.values(data).filter((v) => v === null)).toHaveLength(1);
      expect(Object.values(data).filter((v) => v !== null)).toHaveLength(2);
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions).toEqual({ code: 'UPSTREAM_TIMEOUT' });
      expect(body.errors?.[0]?.path).toEqual([Object.keys(data).find((k) => data[k] === null)]);
      expect(h.sandbox.calls('getTunnel')).toBe(3);
    });
  });
});

describe('a 429 with Retry-After pauses the credential', () => {
  let h: Stack;
  beforeEach(async () => {
    // A harness per test: a pause lasts as long as the upstream asked.
    h = await startStack({
      accounts: { [KEY]: seed(), [OTHER_KEY]: seed() },
      env: { BREAKER_FAILURE_THRESHOLD: '0', UPSTREAM_MAX_CONCURRENCY: '1' },
    });
  });
  afterEach(() => h.close());

  it('a Retry-After longer than the time left answers RATE_LIMITED at once, with it', async () => {
    // 60 s does not fit in the 20 s operation deadline: waiting would only end in a timeout.
    h.sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: 60 });
    const { body } = await h.gql(TUNNEL, { id: t0.id });
    expect(body).toEqual(
      failedTunnel(MESSAGES.rateLimited, {
        code: 'RATE_LIMITED',
        retryAfter: 60,
        upstream: { status: 429, errorCode: 'ERR_NGROK_226', operationId: OP_ID },
      }),
    );
    expect(h.sandbox.calls('getTunnel')).toBe(1);

    // Until then nothing more is sent for that credential, reads or writes; others are served.
    const read = await h.gql(TUNNEL, { id: t1.id });
    expect(read.body).toEqual(
      failedTunnel(MESSAGES.paused, { code: 'RATE_LIMITED', retryAfter: expect.toSatisfy(near(60)) }),
    );
    const write = await h.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backendB } });
    expect(write.body).toMatchObject({
      data: null,
      errors: [{ message: MESSAGES.paused, extensions: { code: 'RATE_LIMITED' } }],
    });
    expect(h.sandbox.calls()).toBe(1);
    const other = await h.gql(TUNNEL, { id: t1.id }, { key: OTHER_KEY });
    expect(other.body).toEqual({ data: { tunnel: { id: t1.id } } });
    expect(h.sandbox.calls()).toBe(2);
    expect(h.of('rateLimited')).toEqual([
      { route: 'getTunnel', source: 'upstream', retryAfter: 60 },
      { route: 'getTunnel', source: 'gateway', retryAfter: expect.toSatisfy(near(60)) },
      { route: 'replaceBackend', source: 'gateway', retryAfter: expect.toSatisfy(near(60)) },
    ]);
  });

  it('a short Retry-After: the other calls of the credential wait it out, then go, once each', async () => {
    h.sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: 1 });
    const first = h.gql(TUNNEL, { id: t0.id });
    while (h.sandbox.calls('getTunnel') === 0) await sleep(5);
    const second = h.gql(TUNNEL, { id: t1.id });
    await sleep(500);
    // Half-way through the pause: only the refused call has reached the upstream.
    expect(h.sandbox.calls('getTunnel')).toBe(1);
    expect((await first).body).toEqual({ data: { tunnel: { id: t0.id } } });
    expect((await second).body).toEqual({ data: { tunnel: { id: t1.id } } });
    // The refused call, its retry after Retry-After, and the call that waited: no second 429.
    expect(h.sandbox.calls('getTunnel')).toBe(3);
    expect(h.of('rateLimited')).toEqual([{ route: 'getTunnel', source: 'upstream', retryAfter: 1 }]);
  });
  it('a call that was waiting for a slot when the 429 came waits the pause out too', async () => {
    // One slot per credential: the second call queues behind the first, which is refused after 100 ms.
    h.sandbox.setLatency('getTunnel', 100);
    h.sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: 1 });
    const both = Promise.all([h.gql(TUNNEL, { id: t0.id }), h.gql(TUNNEL, { id: t1.id })]);
    while (h.sandbox.calls('getTunnel') === 0) await sleep(5);
    await sleep(400);
    expect(h.sandbox.calls('getTunnel')).toBe(1);
    const [first, second] = await both;
    expect(first.body).toEqual({ data: { tunnel: { id: t0.id } } });
    expect(second.body).toEqual({ data: { tunnel: { id: t1.id } } });
    expect(h.sandbox.calls('getTunnel')).toBe(3);
  });
});

describe('the operation deadline', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: seed() },
      // A per-call timeout far beyond the test's own: only the operation deadline can end the wait.
      env: { OPERATION_TIMEOUT_MS: '400', UPSTREAM_TIMEOUT_MS: '120000', UPSTREAM_RETRY_BASE_MS: '1000' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.clearFaults();
    h.sandbox.resetCalls();
    h.events.length = 0;
  });

  it('a hung upstream gives UPSTREAM_TIMEOUT at the operation deadline', async () => {
    h.sandbox.inject('getTunnel', { kind: 'hang' });
    const { body } = await h.gql(TUNNEL, { id: t0.id });
    expect(body).toEqual(failedTunnel(MESSAGES.timeout, { code: 'UPSTREAM_TIMEOUT' }));
    expect(h.sandbox.calls('getTunnel')).toBe(1);
    const next = await h.gql(TUNNEL, { id: t0.id });
    expect(next.body).toEqual({ data: { tunnel: { id: t0.id } } });
  });

  it('no retry is made that cannot finish before the deadline', async () => {
    // The first backoff step (500..1000 ms) does not fit in 400 ms: the 503 is the answer.
    h.sandbox.inject('getTunnel', { kind: 'status', status: 503 });
    const { body } = await h.gql(TUNNEL, { id: t0.id });
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      upstream: { status: 503 },
    });
    expect(h.sandbox.calls('getTunnel')).toBe(1);
    expect(h.of('retry')).toEqual([]);
  });

  it('two requests for the same hung call both end at the deadline', async () => {
    h.sandbox.inject('getTunnel', { kind: 'hang' }, { kind: 'hang' });
    const answers = await Promise.all([h.gql(TUNNEL, { id: t0.id }), h.gql(TUNNEL, { id: t0.id })]);
    for (const { body } of answers) {
      expect(body).toEqual(failedTunnel(MESSAGES.timeout, { code: 'UPSTREAM_TIMEOUT' }));
    }
  });
});
