// createGateway(config) → the yoga instance with its plugins, limits, masking and context, and
// the node:http handler serving it compressed. It does not listen: main.ts (or a test) serves it.
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga } from 'graphql-yoga';
import type { Config } from './config';
import { type Context, createContext } from './context';
import { GatewayError } from './errors';
import {
  createMaskError,
  documentCacheOptions,
  toGraphQLError,
  useCompiledExecution,
  useErrorCodes,
  useIncrementalErrorMasking,
} from './gateway/execution';
import {
  createGraphiQLServing,
  type ExampleIds,
  graphiqlOptions,
  useGraphiQLCache,
} from './gateway/graphiql';
import type { Gateway } from './gateway/instance';
import {
  useBudgetHolds,
  useCostExtensions,
  useDemandControl,
  useObservationJoins,
  useOperationDeadline,
  useQueryLimits,
} from './gateway/limits';
import { useLiveQueries } from './gateway/live-queries';
import {
  combineEvents,
  createMetrics,
  createReadinessProbe,
  createRequestLog,
  maskLoggerOf,
  type Tracing,
  tracesUrl,
  useMetrics,
  useRequestLog,
  useTracing,
  useUpstreamReadiness,
  yogaLoggerOf,
} from './gateway/observability';
import { PERSISTED_PARAM_NAMES, persistedOperations } from './gateway/persisted';
import {
  callerOf,
  graphiqlForAllowedHosts,
  requestGuards,
  securityOptions,
  securityPlugins,
  useAccessControl,
  useRequestGuards,
} from './gateway/security';
import {
  type LinkCarrier,
  subscriberLinkOf,
  useRootPointer,
  useSingleConnectionRefusal,
  withCompression,
} from './gateway/transports';
import { Live } from './live';
import { type Logger, silentLogger } from './log';
import { schema } from './schema';
import { createSharedState, registerRedisMetrics } from './shared-state';
import {
  CallLedger,
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

/** @internal test seam: The transport's options: the config's upstream section as it is, at the URL the gateway talks to. */
export function transportOptions(config: Config, baseUrl: string): TransportOptions {
  const { url: _url, apiKey: _key, ...upstream } = config.upstream;
  return { ...upstream, baseUrl };
}

export type { Gateway } from './gateway/instance';

export function createGateway(config: Config, deps: GatewayDeps = {}): Gateway {
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
      // With the limit off (0) the budget still keeps the live poller to LIVE_POLL_BUDGET_PER_MIN.
      budget: { store: shared.budget, limitPerMin: config.upstream.rateLimitPerMin },
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
  const persisted = persistedOperations(config.persisted, schema);
  // One poller per credential (for the cluster with REDIS_URL), its snapshots and events shared.
  const live = new Live(config, { transport, registry: metrics.registry, logger, shared });

  const maskError = createMaskError(maskLoggerOf(logger));
  // GraphiQL's page, built and compressed once, served with an ETag.
  const graphiql = createGraphiQLServing(config.server.compression);
  // Host and Origin: judged the same for HTTP requests and WebSocket upgrades (gateway/transports/websocket.ts).
  const guards = requestGuards(config, { standIn: deps.standIn });
  const yoga = createYoga<LinkCarrier, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    ...documentCacheOptions(),
    ...securityOptions(config, { standIn: deps.standIn }),
    graphiql: graphiqlForAllowedHosts(config, graphiqlOptions(config, deps.graphiqlExamples)),
    renderGraphiQL: graphiql.render,
    ...(persisted.plugins.length > 0 ? { extraParamNames: PERSISTED_PARAM_NAMES } : {}),
    logging: yogaLoggerOf(logger),
    maskedErrors: { maskError },
    context: (initial) => {
      const { request } = initial;
      try {
        return createContext(
          transport,
          callerOf(request.headers.get('authorization'), config),
          cache,
          live,
          // Each operation's deadline and ledger, counted into its request's (its log line and
          // upstreamBudget; a request the log does not know of, a ledger of its own).
          newScope(requestLog.ledgerOf(request) ?? new CallLedger()),
          subscriberLinkOf(initial),
        );
      } catch (error) {
        if (error instanceof GatewayError) throw toGraphQLError(error);
        throw error;
      }
    },
    plugins: [
      // Before the request log, which reads the codes it fills in.
      useErrorCodes(),
      // Before the request log: it replaces GraphiQL's answer, whose status (304) the log reports.
      useGraphiQLCache(graphiql),
      useRequestLog(requestLog),
      // Before tracing, which wraps the subscribe it sets: an observation's events joined together.
      useObservationJoins(config.limits),
      // A span per operation, and its context for the upstream calls (OTEL_EXPORTER_OTLP_ENDPOINT).
      useTracing(deps.tracing),
      // Before demand control, so refused answers pass it too: upstreamCalls and upstreamBudget.
      useCostExtensions(),
      // Host and Origin: before anything that answers or runs.
      useRequestGuards(guards),
      useSingleConnectionRefusal('/graphql'),
      useRootPointer('/graphql', config.server.nodeEnv !== 'production'),
      useMetrics(metrics),
      useUpstreamReadiness(readiness, shared.redis),
      ...persisted.plugins,
      ...securityPlugins(config),
      useQueryLimits(config.limits),
      // After validation, before anything runs: the upstream calls predicted, admitted or refused.
      useDemandControl(config.limits, { store: shared.budget, limitPerMin: config.upstream.rateLimitPerMin }),
      // Right after admission: the calls it held and did not make are dropped when the operation ends.
      useBudgetHolds(shared.budget),
      // @defer and @stream over multipart HTTP, SSE and graphql-ws; such operations run interpreted.
      useDeferStream(),
      useIncrementalErrorMasking(maskError),
      useCompiledExecution(),
      // After it: a live query's first read and its evaluations run compiled too.
      useLiveQueries(),
      useOperationDeadline(config.limits),
      useAccessControl(),
    ],
  });

  return {
    yoga,
    /** What node:http serves: yoga behind compression (COMPRESSION). */
    handler: withCompression(yoga, config.server),
    transport,
    /** The Host and Origin checks every request passes, which WebSocket upgrades pass too. */
    guards,
    /** Persisted operations and APQ: yoga's plugins, and the same rules for graphql-ws messages. */
    persisted,
    requestLog,
    /** The gateway's own Prometheus registry (served at /metrics). */
    metrics: metrics.registry,
    live,
    shared,
    async close() {
      await live.close();
      await transport.close();
      await shared.close();
      await deps.tracing?.shutdown();
    },
  };
}
