// The observability room's front: the request log and X-Request-Id (request-log.ts, with the codes it
// reads of answers and streams in answer-codes.ts, the request of each error in error-requests.ts),
// Prometheus metrics (metrics.ts, pipeline-metrics.ts, with operation names bounded by
// operation-names.ts), OpenTelemetry tracing (tracing.ts, trace-export.ts) and /readiness
// (upstream-readiness.ts).
export { maskLoggerOf, yogaLoggerOf } from './error-requests';
export { createMetrics, useMetrics } from './metrics';
export { combineEvents, createRequestLog, useRequestLog } from './request-log';
export { tracesUrl } from './trace-export';
export { startTracing, type Tracing, useTracing } from './tracing';
export { createReadinessProbe, useUpstreamReadiness } from './upstream-readiness';
