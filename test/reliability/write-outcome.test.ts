// A write that failed after it was sent may have landed: the error says so (extensions.outcome
// UNKNOWN) instead of reading like a plain failure. A write the upstream refused, or never got, does not.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fault } from '../../src/sandbox';
import { oneRouteAccount, REPLACE } from '../support/fixtures';
import { closedPort } from '../support/relay';
import { KEY, type Stack, startStack } from '../support/stack';

const { edge, route, seed } = oneRouteAccount([]);
const backendB = seed.backends?.[0] ?? '';
const UNKNOWN =
  'The ngrok API did not confirm the change, which may have been applied; read it back before retrying.';

describe('writes whose outcome is unknown', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      env: { UPSTREAM_TIMEOUT_MS: '300', BREAKER_FAILURE_THRESHOLD: '0' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.clearFaults();
    h.sandbox.resetCalls();
  });

  const replace = () => h.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backendB } });

  const unknown: [string, Fault, string][] = [
    ['timed out after sending', { kind: 'hang' }, 'UPSTREAM_TIMEOUT'],
    ['connection dropped after sending', { kind: 'drop' }, 'UPSTREAM_UNAVAILABLE'],
    ['answer cut short', { kind: 'truncatedJson' }, 'UPSTREAM_BAD_RESPONSE'],
  ];
  for (const [name, fault, code] of unknown) {
    it(`${name}: ${code} with outcome UNKNOWN and a read-back hint`, async () => {
      h.sandbox.inject('replaceBackend', fault);
      const { body } = await replace();
      expect(body.data).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.message).toBe(UNKNOWN);
      expect(body.errors?.[0]?.extensions).toMatchObject({ code, outcome: 'UNKNOWN' });
      expect(h.sandbox.calls('replaceBackend')).toBe(1);
    });
  }

  it('a refusal from the upstream (503 with its body) is a plain failure', async () => {
    h.sandbox.inject('replaceBackend', { kind: 'status', status: 503 });
    const { body } = await replace();
    expect(body.errors?.[0]?.message).toBe('The ngrok API is unavailable.');
    expect(body.errors?.[0]?.extensions?.outcome).toBeUndefined();
  });

  it('a read that timed out has no outcome: nothing could have changed', async () => {
    h.sandbox.inject('getBackend', { kind: 'hang' });
    const { body } = await h.gql(
      `{ httpsEdgeRouteBackend(edgeId: "${edge}", routeId: "${route}") { enabled } }`,
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_TIMEOUT');
    expect(body.errors?.[0]?.extensions?.outcome).toBeUndefined();
  });
});

describe('a write that never left the gateway', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: seed },
      upstreamUrl: `http://127.0.0.1:${await closedPort()}`,
      env: { UPSTREAM_RETRIES: '0', BREAKER_FAILURE_THRESHOLD: '0' },
    });
  });
  afterAll(() => h.close());

  it('connection refused: UPSTREAM_UNAVAILABLE without outcome (it surely did not land)', async () => {
    const { body } = await h.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backendB } });
    expect(body.errors?.[0]?.message).toBe('The ngrok API is unavailable.');
    expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(body.errors?.[0]?.extensions?.outcome).toBeUndefined();
  });
});
