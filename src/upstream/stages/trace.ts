// A span per upstream attempt, a child of its operation's span, and the W3C traceparent that carries
// it upstream (exchange.ts adds the headers). In the stage list only when tracing is configured; a call
// outside a traced operation (the live poller, readiness) passes straight through. Attributes name the
// route by its template, never a path with ids, and hold no credential, body or error text.
import {
  defaultTextMapSetter,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { UpstreamError } from '../../errors';
import { urlTemplate } from '../../resources/routes';
import { AttemptFailure, type AttemptTrace, type Stage } from '../call/stage';

export interface UpstreamTracing {
  readonly tracer: Tracer;
  /** Writes the attempt's context into its request headers (W3C trace context). */
  readonly propagator: TextMapPropagator;
}

export interface TraceOptions {
  /** A span per attempt and the traceparent it sends (OTEL_EXPORTER_OTLP_ENDPOINT); none: neither. */
  readonly tracing?: UpstreamTracing;
  readonly baseUrl: string;
}

// OpenTelemetry's HTTP client span attributes (semantic conventions), spelled out: the constants
// package costs a megabyte of heap at start-up even when tracing is off.
const ATTR_SERVER_ADDRESS = 'server.address';
const ATTR_SERVER_PORT = 'server.port';
const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
/** The retry number: set on retries only. */
const ATTR_HTTP_REQUEST_RESEND_COUNT = 'http.request.resend_count';
const ATTR_ERROR_TYPE = 'error.type';
/** The route's template (still among the incubating conventions). */
const ATTR_URL_TEMPLATE = 'url.template';
/** The gateway's own attributes: the route's name as metrics know it, and what the attempt came to. */
const ATTR_ROUTE = 'gateway.upstream.route';
/** 'ok', or the gateway's error code for the attempt (UPSTREAM_TIMEOUT, RATE_LIMITED, …). */
const ATTR_OUTCOME = 'gateway.upstream.outcome';
/** How far a failed attempt got: 'local' (never sent), 'unsent' (no connection) or 'sent'. */
const ATTR_DELIVERY = 'gateway.upstream.delivery';
const ATTR_BUDGET_WAIT_MS = 'gateway.upstream.budget_wait_ms';

/** The trace stage, or none when tracing is off. */
export const traceStage = (options: TraceOptions): Stage | undefined =>
  options.tracing ? spanning(options.tracing, options.baseUrl) : undefined;

function spanning(tracing: UpstreamTracing, baseUrl: string): Stage {
  const url = new URL(baseUrl);
  const server = {
    [ATTR_SERVER_ADDRESS]: url.hostname,
    [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
  };
  return (next) => async (call) => {
    const parent = call.trace;
    if (parent === undefined) return next(call);
    const { method, route } = call.request;
    // The route's path template, as the upstream documents it (OTel: url.template).
    const template = urlTemplate(route);
    const span = tracing.tracer.startSpan(
      `${method} ${template}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...server,
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_URL_TEMPLATE]: template,
          [ATTR_ROUTE]: route,
          ...(call.attempt ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: call.attempt - 1 } : {}),
        },
      },
      parent,
    );
    const traced: AttemptTrace = { headers: {}, budgetWaitMs: 0 };
    tracing.propagator.inject(trace.setSpan(parent, span), traced.headers, defaultTextMapSetter);
    try {
      const response = await next({ ...call, traced });
      span.setAttributes({ [ATTR_HTTP_RESPONSE_STATUS_CODE]: response.status, [ATTR_OUTCOME]: 'ok' });
      return response;
    } catch (caught) {
      const failure = caught instanceof AttemptFailure ? caught : undefined;
      const code = failure?.error.code ?? 'INTERNAL_SERVER_ERROR';
      const status = failure?.error instanceof UpstreamError ? failure.error.status : undefined;
      span.setAttributes({
        ...(status === undefined ? {} : { [ATTR_HTTP_RESPONSE_STATUS_CODE]: status }),
        // OTel: the status when one came, else a low-cardinality reason.
        [ATTR_ERROR_TYPE]: status === undefined ? code : String(status),
        [ATTR_OUTCOME]: code,
        [ATTR_DELIVERY]: failure?.delivery ?? 'sent',
      });
      // No description: an error's text may quote the upstream.
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw caught;
    } finally {
      span.setAttribute(ATTR_BUDGET_WAIT_MS, traced.budgetWaitMs);
      span.end();
    }
  };
}
