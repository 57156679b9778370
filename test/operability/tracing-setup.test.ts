// Tracing's setup and edges: the settings under OpenTelemetry's names, nothing sent or propagated
// without an endpoint, spans still buffered sent on close, and the budget wait an attempt records.
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, transportOptions } from '../../src/app';
import { ConfigError, defaultConfig, loadConfig } from '../../src/config';
import { TUNNEL } from '../../src/resources';
import { startSandbox } from '../../src/sandbox';
import type { ClaimKind, RateBudget, Standing } from '../../src/shared-state';
import { UpstreamTransport, upstreamKey } from '../../src/upstream';
import { getItemRequest } from '../../src/upstream/api/items';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver';
import { type RecordingProxy, startRecordingProxy } from '../support/relay';
import { KEY, startStack } from '../support/stack';
import { LIST_AND_ONE, newClientSpan, ONE, oldest, seed, spansOf } from './tracing-support';

/** A scripted budget's standing (what the stage copies to the ledger; these tests read none of it). */
const STANDING: Standing = {
  remaining: 5,
  shares: {
    reads: { spent: 0, remaining: 5 },
    writes: { spent: 0, remaining: 5 },
    live: { spent: 0, remaining: 5 },
  },
};

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
          ? { granted: false, retryInMs: 150, standing: STANDING }
          : { granted: true, remaining: 5, at: Date.now(), standing: STANDING };
      },
      pollWait: async () => 0,
      waitFor: async () => 0,
      reserve: async (digest) => ({ granted: true, reservation: { id: 'r', digest, held: 0, used: 0 } }),
      release: async () => undefined,
    };
    const transport = new UpstreamTransport({
      ...transportOptions(defaultConfig(), sandbox.url),
      budget: { store: budget, limitPerMin: 10 },
      tracing: { tracer: provider.getTracer('test'), propagator: new W3CTraceContextPropagator() },
    });
    try {
      const operation = provider.getTracer('test').startSpan('operation');
      const scope = { deadline: performance.now() + 5_000, trace: trace.setSpan(ROOT_CONTEXT, operation) };
      expect(
        (await transport.scoped(scope).send(upstreamKey(KEY), getItemRequest(TUNNEL, oldest))).status,
      ).toBe(200);
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
