// /metrics: yoga's Prometheus plugin for the GraphQL pipeline and the upstream client's own series,
// with exact values after known traffic.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { sample } from '../support/prometheus';
import { KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(4, { seed: 62 });
const id = (i: number) => tunnels[i]?.id ?? '';
const ONE = 'query OneTunnel($id: ID!) { tunnel(id: $id) { id } }';
const PAGE = 'query TunnelsPage { tunnels(first: 2) { nodes { id } } }';

describe('/metrics', () => {
  let stack: Stack;
  const scrape = async () => {
    const response = await fetch(stack.url.replace(/\/graphql$/, '/metrics'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { UPSTREAM_RETRIES: '1', UPSTREAM_RETRY_BASE_MS: '1', BREAKER_FAILURE_THRESHOLD: '0' },
    });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sandbox.clearFaults());

  it('counts upstream calls by route, method and status, with a latency histogram', async () => {
    await stack.gql(ONE, { id: id(0) });
    await stack.gql(ONE, { id: 'tn_DoesNotExist0000000000001' });
    await stack.gql(PAGE);
    const text = await scrape();
    const get = { route: 'getTunnel', method: 'GET' };
    expect(sample(text, 'gateway_upstream_requests_total', { ...get, status: '200' })).toBe(1);
    expect(sample(text, 'gateway_upstream_requests_total', { ...get, status: '404' })).toBe(1);
    expect(
      sample(text, 'gateway_upstream_requests_total', { route: 'listTunnels', method: 'GET', status: '200' }),
    ).toBe(1);
    expect(sample(text, 'gateway_upstream_request_duration_seconds_count', get)).toBe(2);
    expect(sample(text, 'gateway_upstream_request_duration_seconds_bucket', { ...get, le: '+Inf' })).toBe(2);
    expect(sample(text, 'gateway_upstream_request_duration_seconds_sum', get)).toBeGreaterThan(0);
    // A 404 is an answer, not an upstream error.
    expect(text).not.toMatch(/^gateway_upstream_errors_total\{/m);
  });

  it('counts errors by route and code, retries, and rate-limit answers', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await stack.gql(ONE, { id: id(1) });
    stack.sandbox.inject('listTunnels', { kind: 'rateLimit', retryAfter: 0 });
    await stack.gql(PAGE);
    const text = await scrape();
    expect(
      sample(text, 'gateway_upstream_errors_total', { route: 'getTunnel', code: 'UPSTREAM_UNAVAILABLE' }),
    ).toBe(2);
    expect(sample(text, 'gateway_upstream_retries_total', { route: 'getTunnel' })).toBe(1);
    expect(
      sample(text, 'gateway_upstream_errors_total', { route: 'listTunnels', code: 'RATE_LIMITED' }),
    ).toBe(1);
    expect(
      sample(text, 'gateway_upstream_rate_limited_total', { route: 'listTunnels', source: 'upstream' }),
    ).toBe(1);
    expect(sample(text, 'gateway_upstream_retries_total', { route: 'listTunnels' })).toBe(1);
    expect(
      sample(text, 'gateway_upstream_requests_total', { route: 'listTunnels', method: 'GET', status: '429' }),
    ).toBe(1);
  });

  it('counts reads that joined an identical call in flight', async () => {
    stack.sandbox.setLatency('getTunnel', 40);
    stack.sandbox.resetCalls();
    await Promise.all([stack.gql(ONE, { id: id(2) }), stack.gql(ONE, { id: id(2) })]);
    expect(stack.sandbox.calls('getTunnel')).toBe(1);
    expect(sample(await scrape(), 'gateway_upstream_coalesced_total', { route: 'getTunnel' })).toBe(1);
  });

  it('records the GraphQL pipeline per operation, without per-resolver, URL or path series', async () => {
    const text = await scrape();
    const op = { operationName: 'OneTunnel', operationType: 'query' };
    // Four OneTunnel operations so far (the coalesced pair counts twice), plus one with a 503 twice.
    expect(sample(text, 'graphql_envelop_request', op)).toBe(5);
    for (const phase of ['parse', 'validate', 'context', 'execute']) {
      expect(sample(text, `graphql_envelop_phase_${phase}_count`, op)).toBe(5);
    }
    expect(sample(text, 'graphql_envelop_request_duration_count', op)).toBe(5);
    expect(sample(text, 'graphql_envelop_error_result', { ...op, phase: 'execute' })).toBe(1);
    expect(
      sample(text, 'graphql_yoga_http_duration_count', { ...op, method: 'POST', statusCode: '200' }),
    ).toBe(5);
    expect(text).not.toMatch(/execute_resolver|deprecated_field|url="|path="/);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('shows the circuit breaker state, and each gateway has its own registry', async () => {
    const other = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { UPSTREAM_RETRIES: '0', BREAKER_FAILURE_THRESHOLD: '2', BREAKER_COOLDOWN_MS: '60000' },
    });
    try {
      const scrapeOther = async () => (await fetch(other.url.replace(/\/graphql$/, '/metrics'))).text();
      let text = await scrapeOther();
      expect(sample(text, 'gateway_upstream_circuit_state', { state: 'closed' })).toBe(1);
      expect(sample(text, 'gateway_upstream_circuit_state', { state: 'open' })).toBe(0);
      expect(text).not.toMatch(/^gateway_upstream_requests_total\{/m);
      other.sandbox.inject('getTunnel', { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
      await other.gql(ONE, { id: id(0) });
      await other.gql(ONE, { id: id(0) });
      const refused = await other.gql(ONE, { id: id(0) });
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(other.sandbox.calls('getTunnel')).toBe(2);
      text = await scrapeOther();
      expect(sample(text, 'gateway_upstream_circuit_state', { state: 'open' })).toBe(1);
      expect(sample(text, 'gateway_upstream_circuit_state', { state: 'closed' })).toBe(0);
      expect(
        sample(text, 'gateway_upstream_requests_total', { route: 'getTunnel', method: 'GET', status: '500' }),
      ).toBe(2);
      // The first gateway's registry saw none of it.
      expect(
        sample(await scrape(), 'gateway_upstream_requests_total', {
          route: 'getTunnel',
          method: 'GET',
          status: '500',
        }),
      ).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('/metrics with the read cache on', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } }, env: { CACHE_TTL_MS: '60000' } });
  });
  afterAll(() => stack.close());

  it('counts reads the cache answered, by route, and logs none as calls', async () => {
    await stack.gql(PAGE);
    await stack.gql(ONE, { id: id(1) });
    await stack.gql(ONE, { id: id(1) });
    expect(stack.sandbox.calls()).toBe(1);
    const text = await (await fetch(stack.url.replace(/\/graphql$/, '/metrics'))).text();
    expect(sample(text, 'gateway_upstream_cache_hits_total', { route: 'getTunnel' })).toBe(2);
    expect(
      sample(text, 'gateway_upstream_requests_total', { route: 'listTunnels', method: 'GET', status: '200' }),
    ).toBe(1);
  });
});
