// The OpenTelemetry SDK behind tracing: a tracer provider whose finished spans are batched and sent
// over OTLP/HTTP (JSON) to the collector. Every setting comes from the gateway's config: the SDK is
// given each one, so it does not go looking in the environment. It is loaded only when tracing is on.
import type { TracerProvider } from '@opentelemetry/api';
import type { ReadableSpan, Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../../config';
import type { Logger } from '../../log';

export interface TraceExport {
  readonly provider: TracerProvider;
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else the base endpoint's /v1/traces. */
export const tracesUrl = (config: TracingConfig): string | undefined =>
  config.tracesEndpoint ?? (config.endpoint === undefined ? undefined : `${config.endpoint}/v1/traces`);

type Sdk = typeof import('@opentelemetry/sdk-trace');

function samplerOf(sdk: Sdk, config: TracingConfig): Sampler {
  const ratio = new sdk.TraceIdRatioBasedSampler(config.samplerRatio);
  const always = new sdk.AlwaysOnSampler();
  const never = new sdk.AlwaysOffSampler();
  switch (config.sampler) {
    case 'always_on':
      return always;
    case 'always_off':
      return never;
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_on':
      return new sdk.ParentBasedSampler({ root: always });
    case 'parentbased_always_off':
      return new sdk.ParentBasedSampler({ root: never });
    case 'parentbased_traceidratio':
      return new sdk.ParentBasedSampler({ root: ratio });
  }
}

/** Attributes of events that may quote a client, an upstream or a stack; their type stays. */
const EVENT_TEXT = new Set(['exception.message', 'exception.stacktrace']);

/**
 * The span as it may leave the process: exception events keep only their type. (The operation
 * plugin records a failed operation's errors before yoga masks them.)
 */
function redacted(span: ReadableSpan): ReadableSpan {
  if (!span.events.some((e) => e.attributes && Object.keys(e.attributes).some((k) => EVENT_TEXT.has(k))))
    return span;
  const events = span.events.map((e) => ({
    ...e,
    attributes: Object.fromEntries(Object.entries(e.attributes ?? {}).filter(([k]) => !EVENT_TEXT.has(k))),
  }));
  // Everything else read through to the SDK's own span (its getters and spanContext() included).
  return Object.create(span, { events: { value: events } }) as ReadableSpan;
}

/** Redacts every span before `exporter` sends it; says once when exports start failing, and when they recover. */
function guarded(exporter: SpanExporter, logger: Logger): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans.map(redacted), (result) => {
        const failed = result.code !== 0; // ExportResultCode.SUCCESS
        if (failed !== failing) {
          failing = failed;
          if (failed) logger.warn({ spans: spans.length }, 'could not send spans to the OTLP collector');
          else logger.info('spans reach the OTLP collector again');
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

export async function createTraceExport(
  config: TracingConfig,
  url: string,
  logger: Logger,
): Promise<TraceExport> {
  const [sdk, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }, { ATTR_SERVICE_NAME }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/semantic-conventions'),
    ]);
  const exporter = new OTLPTraceExporter({
    url,
    headers: { ...config.headers },
    timeoutMillis: 10_000,
    httpAgentOptions: { keepAlive: true },
  });
  const provider = new sdk.TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName })),
    sampler: samplerOf(sdk, config),
    // Operation names are client text: a span never holds a long one.
    spanLimits: { attributeValueLengthLimit: 256 },
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: guarded(exporter, logger),
        scheduledDelayMillis: config.batchDelayMs,
        maxQueueSize: 2048,
        maxExportBatchSize: 512,
        // Bounds the flush on shutdown too, when the collector is slow or gone.
        exportTimeoutMillis: 10_000,
      }),
    ],
  });
  return { provider, shutdown: () => provider.shutdown() };
}
