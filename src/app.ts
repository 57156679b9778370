// createGateway(config) → the yoga instance with its plugins, limits, masking and context.
// It does not listen: main.ts (or a test) serves it.
import { createYoga } from 'graphql-yoga';
import type { Config } from './config';
import { type Context, createContext } from './context';
import { GatewayError } from './errors';
import { useAccessControl } from './gateway/access-control';
import { credentialOf } from './gateway/credentials';
import { documentCacheOptions } from './gateway/document-cache';
import type { ExampleIds } from './gateway/examples';
import { useCompiledExecution } from './gateway/execution';
import { graphiqlOptions, renderOfflineGraphiQL } from './gateway/graphiql';
import { createMaskError, toGraphQLError, useErrorCodes } from './gateway/graphql-errors';
import { createReadinessProbe, useUpstreamReadiness } from './gateway/health';
import { graphiqlForAllowedHosts } from './gateway/hosts';
import { createMetrics } from './gateway/metrics';
import { combineEvents, createRequestLog, maskLoggerOf, yogaLoggerOf } from './gateway/observability';
import { useOperationDeadline } from './gateway/operation-deadline';
import { PERSISTED_PARAM_NAMES, persistedOperationsPlugins } from './gateway/persisted';
import { useQueryLimits } from './gateway/query-limits';
import { requestGuards, securityOptions, securityPlugins } from './gateway/security';
import { tracesUrl } from './gateway/trace-export';
import type { Tracing } from './gateway/tracing';
import { useUpstreamBudgetExtension } from './gateway/upstream-budget';
import { clusterLiveDeps } from './live/cluster';
import { LiveEvents } from './live/subscriptions';
import { type Logger, silentLogger } from './log';
import { schema } from './schema';
import { createSharedState } from './shared-state';
import { registerRedisMetrics } from './shared-state/redis-metrics';
import {
  newScope,
  ReadCache,
  type TransportOptions,
  type UpstreamEvents,
  UpstreamTransport,
} from './upstream';

export interface GatewayDeps {
  /** Shared with the caller (tests read its stats); created from config when omitted. */
  readonly transport?: UpstreamTransport;
  /** Request lines and masked errors (src/log.ts); silent when omitted. */
  readonly logger?: Logger;
  /** Upstream hooks for a transport created here, besides the gateway's own metrics and log tallies. */
  readonly events?: UpstreamEvents;
  /** Ids that exist upstream, for GraphiQL's example variables (main.ts: the stand-in's demo data). */
  readonly graphiqlExamples?: ExampleIds;
  /** The upstream is the embedded stand-in (main.ts): nothing real is at stake, any origin in development. */
  readonly standIn?: boolean;
  /** OpenTelemetry, started by startTracing (main.ts) when an OTLP endpoint is configured; closed with the gateway. */
  readonly tracing?: Tracing;
}

/** The transport's options: the config's upstream section as it is, at the URL the gateway talks to. */
export function transportOptions(config: Config, baseUrl: string): TransportOptions {
  const { url: _url, apiKey: _key, ...upstream } = config.upstream;
  return { ...upstream, baseUrl };
}

export function createGateway(config: Config, deps: GatewayDeps = {}) {
  const upstreamUrl = config.upstream.url;
  if (upstreamUrl === undefined)
    throw new Error('createGateway needs an upstream URL (main.ts starts the stand-in).');
  if (tracesUrl(config.tracing) !== undefined && deps.tracing === undefined)
    throw new Error('createGateway needs the tracing of an OTLP endpoint (main.ts starts it: startTracing).');
  const metrics = createMetrics({ maxOperationNames: config.metrics.maxOperationNames });
  const logger = deps.logger ?? silentLogger();
  const requestLog = createRequestLog(logger);
  // Per process without REDIS_URL; with it, what replicas share: budget, pauses, read cache.
  const shared = createSharedState(
    {
      redis: config.redis,
      cache: config.cache,
      rateLimitPerMin: config.upstream.rateLimitPerMin,
      livePollBudgetPerMin: config.live.pollBudgetPerMin,
    },
    logger,
  );
  if (shared.redis) registerRedisMetrics(metrics.registry, shared.redis);
  const transport =
    deps.transport ??
    new UpstreamTransport({
      ...transportOptions(config, upstreamUrl),
      ...(config.upstream.rateLimitPerMin > 0
        ? { budget: { store: shared.budget, limitPerMin: config.upstream.rateLimitPerMin } }
        : {}),
      pauses: shared.pauses,
      events: combineEvents(metrics.events, deps.events),
      ...(deps.tracing ? { tracing: deps.tracing.upstream } : {}),
    });
  // Shared by every request's client (and every replica with Redis); off unless CACHE_TTL_MS > 0.
  const cache = config.cache.ttlMs > 0 ? new ReadCache(shared.cache) : undefined;
  const readiness = createReadinessProbe({
    apiKey: config.upstream.apiKey,
    timeoutMs: config.readiness.timeoutMs,
    cacheMs: config.readiness.cacheMs,
    transport,
  });
  const persisted = persistedOperationsPlugins(config.persisted, schema);
  // With REDIS_URL: one poller per credential for the cluster, its snapshot and events shared.
  const live = new LiveEvents(config, {
    transport,
    registry: metrics.registry,
    logger,
    ...clusterLiveDeps(shared, config.live),
  });

  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    ...documentCacheOptions(),
    ...securityOptions(config, { standIn: deps.standIn }),
    graphiql: graphiqlForAllowedHosts(config, graphiqlOptions(config, deps.graphiqlExamples)),
    renderGraphiQL: renderOfflineGraphiQL,
    ...(persisted.length > 0 ? { extraParamNames: PERSISTED_PARAM_NAMES } : {}),
    logging: yogaLoggerOf(logger),
    maskedErrors: { maskError: createMaskError(maskLoggerOf(logger)) },
    context: ({ request }) => {
      try {
        return createContext(
          transport,
          credentialOf(request.headers.get('authorization'), config),
          cache,
          live,
          // Each operation's deadline; the request's tally for its log line.
          newScope(requestLog.tallyOf(request)),
        );
      } catch (error) {
        if (error instanceof GatewayError) throw toGraphQLError(error);
        throw error;
      }
    },
    plugins: [
      // Before the request log, which reads the codes it fills in.
      useErrorCodes,
      requestLog.plugin,
      // A span per operation, and its context for the upstream calls (OTEL_EXPORTER_OTLP_ENDPOINT).
      ...(deps.tracing?.plugins ?? []),
      useUpstreamBudgetExtension(),
      // Host and Origin: before anything that answers or runs.
      ...requestGuards(config, { standIn: deps.standIn }),
      metrics.plugin,
      useUpstreamReadiness(readiness, shared.redis),
      ...persisted,
      ...securityPlugins(config),
      useQueryLimits(config.limits),
      useCompiledExecution(),
      useOperationDeadline(config.limits),
      useAccessControl(),
    ],
  });

  return {
    yoga,
    transport,
    /** The gateway's own Prometheus registry (served at /metrics). */
    metrics: metrics.registry,
    /** Live tunnel events: their pollers and open streams. */
    live,
    /** State shared with other replicas through Redis (REDIS_URL), else per process. */
    shared,
    async close() {
      await live.close();
      await transport.close();
      await shared.close();
      await deps.tracing?.shutdown();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
