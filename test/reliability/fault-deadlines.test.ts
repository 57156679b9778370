// A hung upstream: one call ends at UPSTREAM_TIMEOUT_MS (a write's outcome then unknown), and an
// operation at OPERATION_TIMEOUT_MS, with no retry begun that could not finish before it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELETE } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';
import {
  backendA,
  backendOf,
  edge,
  failedTunnel,
  freshFaults,
  MESSAGES,
  route,
  seed,
  startFaultStack,
  stillServes,
  TUNNEL,
  t0,
} from './fault-fixtures';

describe('a hung upstream call', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startFaultStack();
  });
  afterAll(() => h.close());
  beforeEach(() => freshFaults(h));

  describe('deadlines', () => {
    it('a hung upstream call ends in UPSTREAM_TIMEOUT after UPSTREAM_TIMEOUT_MS, not retried', async () => {
      h.sandbox.inject('getTunnel', { kind: 'hang' });
      const { status, body } = await h.gql(TUNNEL, { id: t0.id });
      expect(status).toBe(200);
      expect(body).toEqual(failedTunnel(MESSAGES.timeout, { code: 'UPSTREAM_TIMEOUT' }));
      expect(h.sandbox.calls('getTunnel')).toBe(1);
      expect(h.of('retry')).toEqual([]);
      await stillServes(h);
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
      await stillServes(h);
    });
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
