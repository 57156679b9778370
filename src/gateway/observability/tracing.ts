// Tracing with OpenTelemetry, on only when an OTLP endpoint is configured (trace-export.ts): a span
// per GraphQL operation with its name and type (@envelop/opentelemetry), the child of the client's
// span when the request carries a W3C traceparent. The operation span's context goes to the
// operation's upstream scope, under which the transport makes a span per attempt
// (src/upstream/stages/trace.ts). Off, nothing is loaded, no plugin is installed and no span code runs.
import { ROOT_CONTEXT, SpanKind, type TextMapGetter, type Context as TraceContext } from '@opentelemetry/api';
import type { Plugin } from 'graphql-yoga';
import type { TracingConfig } from '../../config';
import type { Context } from '../../context';
import type { Logger } from '../../log';
import type { UpstreamTracing } from '../../upstream';
import { createTraceExport, tracesUrl } from './trace-export';

export interface Tracing {
  /** Yoga plugins, in this order. */
  readonly plugins: readonly Plugin<Context>[];
  /** What the transport needs for its attempt spans and their traceparent header. */
  readonly upstream: UpstreamTracing;
  /** Sends the spans still buffered, then stops (the gateway's close calls it). */
  shutdown(): Promise<void>;
}

/** The instrumentation scope of every span the gateway makes. */
const TRACER_NAME = 'ngrok-graphql-gateway';

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

const requestOf = (context: object): Request | undefined => (context as { request?: Request }).request;

/** Starts the SDK and returns the gateway's tracing, or undefined (nothing loaded) without an endpoint. */
export async function startTracing(config: TracingConfig, logger: Logger): Promise<Tracing | undefined> {
  const url = tracesUrl(config);
  if (url === undefined) return undefined;
  const [plugin, { W3CTraceContextPropagator }, traceExport] = await Promise.all([
    import('@envelop/opentelemetry'),
    import('@opentelemetry/core'),
    createTraceExport(config, url, logger),
  ]);
  const propagator = new W3CTraceContextPropagator();
  const parentOf = (context: object): TraceContext => {
    const request = requestOf(context);
    return request ? propagator.extract(ROOT_CONTEXT, request.headers, headerGetter) : ROOT_CONTEXT;
  };
  // Before the operation span starts: its parent is the client's span (none: a new trace).
  const fromClient: Plugin<Context> = {
    onExecute({ args }) {
      plugin.setCurrentOtelContext(args.contextValue, parentOf(args.contextValue));
    },
    onSubscribe({ args }) {
      plugin.setCurrentOtelContext(args.contextValue, parentOf(args.contextValue));
    },
  };
  const operationSpan = plugin.useOpenTelemetry(
    // No document, variables, result or per-field spans: client data stays out, resolvers unwrapped.
    { document: false, variables: false, result: false, resolvers: false },
    traceExport.provider,
    SpanKind.SERVER,
    {},
    TRACER_NAME,
  ) as Plugin<Context>;
  // Once it has started: the operation's upstream calls are its children.
  const toUpstream: Plugin<Context> = {
    onExecute({ args }) {
      args.contextValue.upstreamScope.trace = plugin.getCurrentOtelContext(args.contextValue);
    },
  };
  return {
    plugins: [fromClient, operationSpan, toUpstream],
    upstream: { tracer: traceExport.provider.getTracer(TRACER_NAME), propagator },
    shutdown: () => traceExport.shutdown(),
  };
}

/** The operation spans of `tracing`, in their order; nothing when tracing is off (no OTLP endpoint). */
export function useTracing(tracing: Tracing | undefined): Plugin<Context> {
  return {
    onPluginInit({ addPlugin }) {
      for (const plugin of tracing?.plugins ?? []) addPlugin(plugin);
    },
  };
}
