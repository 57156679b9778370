// Tracing over OTLP/HTTP: a real receiver decodes what the gateway's exporter sends, and an HTTP
// proxy in front of the stand-in notes the traceparent each upstream request carried. Off (no
// endpoint), nothing is sent and no traceparent goes upstream.
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, transportOptions } from '../../src/app';
import { ConfigError, defaultConfig, loadConfig } from '../../src/config';
import { type AccountSeed, makeTunnels, startSandbox } from '../../src/sandbox';
import type { ClaimKind, RateBudget } from '../../src/shared-state';
import { credentialDigest, UpstreamTransport } from '../../src/upstream';
import { getTunnelRequest } from '../../src/upstream/api/tunnels';
import { sleep } from '../support/fixtures';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver';
import { type RecordingProxy, startRecordingProxy } from '../support/relay';
import { KEY, type Stack, startStack } from '../support/stack';

const TOKEN = 'gateway-token-for-tracing-0123';
const COLLECTOR_KEY = 'collector-secret-0123456789';
const tunnels = makeTunnels(8, { seed: 19 });
const seed = (): AccountSeed => ({ tunnels });
/** Newest first, as the upstream lists them: the oldest is not on a first page of 5. */
const oldest = tunnels.map((t) => t.id).sort()[0] as string;
const firstPage = [...tunnels]
  .sort((a, b) => (a.id < b.id ? 1 : -1))
  .slice(0, 5)
  .map((t) => ({ id: t.id, tunnelSession: { id: t.tunnel_session.id } }));

const LIST_AND_ONE = `query ListAndOne($id: ID!) {
  tunnels(first: 5) { nodes { id tunnelSession { id } } }
  tunnel(id: $id) { id }
}`;
const ONE = 'query One($id: ID!) { tunnel(id: $id) { id } }';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** A client's span, as a W3C traceparent names it (sampled). */
const clientSpan = (traceId: string, spanId: string) => ({
  traceId,
  spanId,
  header: { traceparent: `00-${traceId}-${spanId}-01` },
});

const hex = (n: number, length: number) => n.toString(16).padStart(length, '0');
let traces = 0;
const newClientSpan = () => {
  traces += 1;
  return clientSpan(`4bf92f3577b34da6${hex(traces, 16)}`, `00f067aa${hex(traces, 8)}`);
};

/** Waits for `count` spans of a trace to reach the receiver (or fails with what came). */
async function spansOf(receiver: OtlpReceiver, traceId: string, count: number): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const spans = receiver.spans().filter((s) => s.traceId === traceId);
    if (spans.length >= count || Date.now() > deadline) return spans;
    await sleep(20);
  }
}

/** An attempt span as the tests compare it. */
const attempt = (s: ReceivedSpan) => ({
  name: s.name,
  kind: s.kind,
  parentSpanId: s.parentSpanId,
  status: s.status,
  attributes: s.attributes,
});

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
    const [operation, ...attempts] = spans as [ReceivedSpan, ...ReceivedSpan[]];
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
    for (const secret of [KEY, TOKEN, credentialDigest(KEY), credentialDigest(TOKEN), COLLECTOR_KEY]) {
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

    const [operation, call] = (await spansOf(receiver, client.traceId, 2)) as [ReceivedSpan, ReceivedSpan];
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
    const [, call] = await spansOf(receiver, traceId, 2);
    expect(call?.parentSpanId).toBe(operation?.spanId);
    expect(proxy.requests.map((r) => r.headers.traceparent)).toEqual([`00-${traceId}-${call?.spanId}-01`]);
  });
});

describe('an attempt that waited for the upstream budget', () => {
  it('says how long on its span', async () => {
    const sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: seed() } });
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    // One refusal, the next call free in 150 ms, then granted.
    const claims: ClaimKind[] = [];
    const budget: RateBudget = {
      take: async (_digest, kind) => {
        claims.push(kind);
        return claims.length === 1
          ? { granted: false, retryInMs: 150 }
          : { granted: true, remaining: 5, at: Date.now() };
      },
      pollWait: async () => 0,
    };
    const transport = new UpstreamTransport({
      ...transportOptions(defaultConfig(), sandbox.url),
      budget: { store: budget, limitPerMin: 10 },
      tracing: { tracer: provider.getTracer('test'), propagator: new W3CTraceContextPropagator() },
    });
    try {
      const operation = provider.getTracer('test').startSpan('operation');
      const scope = { deadline: performance.now() + 5_000, trace: trace.setSpan(ROOT_CONTEXT, operation) };
      expect((await transport.scoped(scope).send(KEY, getTunnelRequest(oldest))).status).toBe(200);
      const [span] = exporter.getFinishedSpans();
      expect(span?.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
      expect(span?.attributes).toMatchObject({
        'gateway.upstream.budget_wait_ms': 150,
        'gateway.upstream.outcome': 'ok',
      });
      expect(claims).toEqual(['read', 'read']);
    } finally {
      await transport.close();
      await provider.shutdown();
      await sandbox.close();
    }
  });
});

describe('spans still buffered when the gateway closes', () => {
  it('are sent on close', async () => {
    const receiver = await startOtlpReceiver();
    const stack = await startStack({
      accounts: { [KEY]: seed() },
      // Far beyond the test: only the close can send them.
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
    });
    try {
      const client = newClientSpan();
      await stack.gql(ONE, { id: oldest }, { headers: client.header });
      expect(receiver.exports).toHaveLength(0);
      await stack.close();
      expect((await spansOf(receiver, client.traceId, 2)).map((s) => s.name)).toEqual([
        'query.One',
        'GET /tunnels/{id}',
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('without an OTLP endpoint', () => {
  let receiver: OtlpReceiver;
  let proxy: RecordingProxy;
  const inherited = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    proxy = await startRecordingProxy();
    // What an SDK started on its own would read: the gateway's config alone decides.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  });
  afterAll(async () => {
    if (inherited === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = inherited;
    await proxy.close();
    await receiver.close();
  });

  it('sends no span and no traceparent upstream, even when the client sends one', async () => {
    const stack = await startStack({ accounts: { [KEY]: seed() }, upstreamUrl: proxy.url });
    proxy.target = stack.sandbox.url;
    const client = newClientSpan();
    const answer = await stack.gql(LIST_AND_ONE, { id: oldest }, { headers: client.header });
    expect(answer.body.errors).toBeUndefined();
    await stack.close();
    expect(proxy.requests.map((r) => r.path.split('?')[0]).sort()).toEqual([
      '/tunnels',
      `/tunnels/${oldest}`,
    ]);
    for (const r of proxy.requests) {
      expect(r.headers.traceparent).toBeUndefined();
      expect(r.headers.tracestate).toBeUndefined();
    }
    expect(receiver.exports).toEqual([]);
  });
});

describe('tracing settings', () => {
  it('take OpenTelemetry names; a collector header value is never repeated in an error', () => {
    const config = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_HEADERS: 'X-Api-Key=a%20b,tenant=t1',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(config.tracing).toMatchObject({
      endpoint: 'http://collector:4318',
      headers: { 'x-api-key': 'a b', tenant: 't1' },
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      serviceName: 'ngrok-graphql-gateway',
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'secret-without-a-name' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'secret-without-a-name' })).not.toThrow(
      /secret-without/,
    );
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
  });

  it('a gateway built with an endpoint but without startTracing refuses to start untraced', () => {
    const config = loadConfig({
      NGROK_API_URL: 'http://127.0.0.1:9',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(() => createGateway(config)).toThrow(/startTracing/);
  });
});
