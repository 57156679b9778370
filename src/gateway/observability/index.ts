// The observability room's front: the request log and X-Request-Id (request-log.ts), Prometheus
// metrics (metrics.ts, pipeline-metrics.ts, with operation names bounded by operation-names.ts),
// OpenTelemetry tracing (tracing.ts, trace-export.ts) and /readiness (upstream-readiness.ts).
export { createMetrics, useMetrics } from './metrics';
export {
  combineEvents,
  createRequestLog,
  maskLoggerOf,
  useRequestLog,
  yogaLoggerOf,
} from './request-log';
export { tracesUrl } from './trace-export';
export { startTracing, type Tracing, useTracing } from './tracing';
export { createReadinessProbe, useUpstreamReadiness } from './upstream-readiness';
