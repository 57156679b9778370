// OpenTelemetry tracing, under OpenTelemetry's own variable names: off unless an OTLP endpoint is set.

import { option, unset } from '../option';
import { fraction, headerList, httpUrl, integer, oneOf, text } from '../parsers';
import { TRACE_SAMPLERS, type TraceSampler } from '../values';

export const tracing = {
  endpoint: unset<string>({
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    help: 'OTLP/HTTP collector base URL (e.g. http://otel-collector:4318); spans are sent to its /v1/traces. Unset: no tracing at all',
    parse: httpUrl,
  }),
  tracesEndpoint: unset<string>({
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    help: 'full OTLP/HTTP URL for spans, used as is; wins over OTEL_EXPORTER_OTLP_ENDPOINT',
    parse: httpUrl,
  }),
  headers: option<Readonly<Record<string, string>>>({
    env: 'OTEL_EXPORTER_OTLP_HEADERS',
    help: 'headers sent to the collector, name=value pairs separated by commas, values URL-encoded (e.g. its API key)',
    default: {},
    defaultText: 'none',
    parse: headerList,
  }),
  serviceName: option({
    env: 'OTEL_SERVICE_NAME',
    help: 'service.name of the spans',
    default: 'ngrok-graphql-gateway',
    parse: text,
  }),
  sampler: option<TraceSampler>({
    env: 'OTEL_TRACES_SAMPLER',
    help: `which operations are traced: ${TRACE_SAMPLERS.join(', ')} (parentbased_*: follow the client's sampled flag when it sends a traceparent)`,
    default: 'parentbased_always_on',
    parse: oneOf(TRACE_SAMPLERS),
  }),
  samplerRatio: option({
    env: 'OTEL_TRACES_SAMPLER_ARG',
    help: 'the share of traces kept by the traceidratio samplers, 0 to 1',
    default: 1,
    parse: fraction,
  }),
  batchDelayMs: option({
    env: 'OTEL_BSP_SCHEDULE_DELAY',
    help: 'milliseconds between two exports of finished spans (all are sent on shutdown)',
    default: 5_000,
    parse: integer(1, 600_000),
  }),
};
