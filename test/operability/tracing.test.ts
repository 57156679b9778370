// Tracing over OTLP/HTTP: a real receiver decodes what the gateway's exporter sends, and an HTTP
// proxy in front of the stand-in notes the traceparent each upstream request carried
// (tracing-setup.test.ts: the settings, no endpoint, the flush on close, an attempt's budget wait).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyDigest } from '../../src/upstream';
import { sleep } from '../support/fixtures';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver';
import { type RecordingProxy, startRecordingProxy } from '../support/relay';
import { KEY, type Stack, startStack } from '../support/stack';
import {
  attempt,
  CLIENT,
  COLLECTOR_KEY,
  ERROR,
  firstPage,
  LIST_AND_ONE,
  newClientSpan,
  ONE,
  oldest,
  operationAndCalls,
  SERVER,
  seed,
  spansOf,
  TOKEN,
} from './tracing-support';

describe('tracing with an OTLP endpoint', () => {
  let receiver: OtlpReceiver;
  let proxy: RecordingProxy;
  let stack: Stack;
  let upstream: { 'server.address': string; 'server.port': number };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    proxy = await startRecordingProxy();
    stack = await startStack({
      accounts: { [KEY]: seed() },
      upstreamUrl: proxy.url,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}`,
        OTEL_SERVICE_NAME: 'gateway-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        // The server holds the key; clients bring a gateway token: neither may reach a span.
        NGROK_API_KEY: KEY,
        GATEWAY_TOKENS: TOKEN,
        UPSTREAM_RETRY_BASE_MS: '10',
      },
    });
    proxy.target = stack.sandbox.url;
    upstream = { 'server.address': '127.0.0.1', 'server.port': Number(new URL(proxy.url).port) };
  });
  afterAll(async () => {
    await stack.close();
    await proxy.close();
    await receiver.close();
  });
  beforeEach(() => {
    stack.sandbox.clearFaults();
    proxy.requests.length = 0;
  });

  it('a list + join query: the operation span under the client span, a child span per upstream attempt, a retry numbered 1', async () => {
    const client = newClientSpan();
    stack.sandbox.inject('listTunnels', { kind: 'status', status: 503 });
    const answer = await stack.gql(LIST_AND_ONE, { id: oldest }, { key: TOKEN, headers: client.header });
    expect(answer.body).toEqual({ data: { tunnels: { nodes: firstPage }, tunnel: { id: oldest } } });

    const spans = await spansOf(receiver, client.traceId, 4);
    expect(spans).toHaveLength(4);
    const [operation, ...attempts] = operationAndCalls(spans, 'query.ListAndOne') as [
      ReceivedSpan,
      ...ReceivedSpan[],
    ];
    expect(operation).toMatchObject({
      name: 'query.ListAndOne',
      kind: SERVER,
      parentSpanId: client.spanId,
      scope: 'ngrok-graphql-gateway',
      attributes: {
        'graphql.execute.operationName': 'ListAndOne',
        'graphql.execute.operationType': 'query',
      },
      events: [],
    });
    expect(Object.keys(operation.attributes).sort()).toEqual([
      'graphql.execute.operationName',
      'graphql.execute.operationType',
    ]);
    expect(operation.resource['service.name']).toBe('gateway-under-test');

    const child = { kind: CLIENT, parentSpanId: operation.spanId };
    const list = { ...upstream, 'http.request.method': 'GET', 'url.template': '/tunnels' };
    const byId = { ...upstream, 'http.request.method': 'GET', 'url.template': '/tunnels/{id}' };
    const byRetry = (a: ReceivedSpan, b: ReceivedSpan) =>
      a.name.localeCompare(b.name) ||
      Number(a.attributes['http.request.resend_count'] ?? 0) -
        Number(b.attributes['http.request.resend_count'] ?? 0);
    expect(attempts.sort(byRetry).map(attempt)).toEqual([
      {
        ...child,
        name: 'GET /tunnels',
        status: ERROR,
        attributes: {
          ...list,
          'gateway.upstream.route': 'listTunnels',
          'http.response.status_code': 503,
          'error.type': '503',
          'gateway.upstream.outcome': 'UPSTREAM_UNAVAILABLE',
          'gateway.upstream.delivery': 'sent',
          'gateway.upstream.budget_wait_ms': 0,
        },
      },
      {
        ...child,
        name: 'GET /tunnels',
        status: 0,
        attributes: {
          ...list,
          'gateway.upstream.route': 'listTunnels',
          'http.request.resend_count': 1,
          'http.response.status_code': 200,
          'gateway.upstream.outcome': 'ok',
          'gateway.upstream.budget_wait_ms': 0,
        },
      },
      {
        ...child,
        name: 'GET /tunnels/{id}',
        status: 0,
        attributes: {
          ...byId,
          'gateway.upstream.route': 'getTunnel',
          'http.response.status_code': 200,
          'gateway.upstream.outcome': 'ok',
          'gateway.upstream.budget_wait_ms': 0,
        },
      },
    ]);

    // Each upstream request carried its own attempt's span, in the client's trace.
    const sent = proxy.requests.map((r) => [r.path.split('?')[0], r.headers.traceparent]).sort();
    const expected = attempts
      .map((s) => [
        s.name === 'GET /tunnels' ? '/tunnels' : `/tunnels/${oldest}`,
        `00-${client.traceId}-${s.spanId}-01`,
      ])
      .sort();
    expect(sent).toEqual(expected);
    expect(proxy.requests.every((r) => r.headers.tracestate === undefined)).toBe(true);
  });

  it('no credential, digest or upstream body in anything exported; the collector gets its own header', async () => {
    const client = newClientSpan();
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 502 });
    await stack.gql(LIST_AND_ONE, { id: oldest }, { key: TOKEN, headers: client.header });
    expect(await spansOf(receiver, client.traceId, 4)).toHaveLength(4);
    const exported = receiver.exports.map((e) => e.body).join('\n');
    for (const secret of [KEY, TOKEN, keyDigest(KEY), keyDigest(TOKEN), COLLECTOR_KEY]) {
      expect(exported).not.toContain(secret);
    }
    // The stand-in's 502 and 503 bodies say "Bad Gateway" / "Service Unavailable".
    expect(exported).not.toMatch(/Bearer|authorization|Bad Gateway|Service Unavailable/i);
    for (const e of receiver.exports) {
      expect(e.headers['x-collector-key']).toBe(COLLECTOR_KEY);
      expect(e.headers['content-type']).toBe('application/json');
    }
  });

  it('a failed operation: its span is an error whose exception keeps its type, not its text', async () => {
    const client = newClientSpan();
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 500 });
    const answer = await stack.gql(ONE, { id: oldest }, { key: TOKEN, headers: client.header });
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');

    const spans = await spansOf(receiver, client.traceId, 2);
    const [operation, call] = operationAndCalls(spans, 'query.One') as [ReceivedSpan, ReceivedSpan];
    expect(operation).toMatchObject({ name: 'query.One', parentSpanId: client.spanId, status: ERROR });
    expect(operation.events).toEqual([
      { name: 'exception', attributes: { 'exception.type': 'graphql.execute.error' } },
    ]);
    expect(attempt(call)).toMatchObject({
      name: 'GET /tunnels/{id}',
      parentSpanId: operation.spanId,
      status: ERROR,
      attributes: { 'http.response.status_code': 500, 'gateway.upstream.outcome': 'UPSTREAM_UNAVAILABLE' },
    });
    expect(call.events).toEqual([]);
  });

  it('without a client traceparent, the operation starts a trace of its own and carries it upstream', async () => {
    const answer = await stack.gql('query Untraced { tunnels(first: 1) { nodes { id } } }', undefined, {
      key: TOKEN,
    });
    expect(answer.body.errors).toBeUndefined();
    let operation: ReceivedSpan | undefined;
    const deadline = Date.now() + 10_000;
    while (!operation && Date.now() < deadline) {
      operation = receiver.spans().find((s) => s.name === 'query.Untraced');
      if (!operation) await sleep(20);
    }
    expect(operation?.parentSpanId).toBeUndefined();
    const traceId = operation?.traceId ?? '';
    const [, call] = operationAndCalls(await spansOf(receiver, traceId, 2), 'query.Untraced');
    expect(call?.parentSpanId).toBe(operation?.spanId);
    expect(proxy.requests.map((r) => r.headers.traceparent)).toEqual([`00-${traceId}-${call?.spanId}-01`]);
  });
});
