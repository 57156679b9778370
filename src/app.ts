// createGateway(config) → the yoga instance with its plugins, limits, masking and context.
// It does not listen: main.ts (or a test) serves it.
import { type DefinitionNode, Kind, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from './config';
import { type Context, createContext } from './context';
import { GatewayError, missingCredential } from './errors';
import { credentialOf } from './gateway/credentials';
import { documentCacheOptions } from './gateway/document-cache';
import type { ExampleIds } from './gateway/examples';
import { compiledExecution } from './gateway/execution';
import { graphiqlOptions, renderOfflineGraphiQL } from './gateway/graphiql';
import { createMaskError, toGraphQLError, useErrorCodes } from './gateway/graphql-errors';
import { createReadinessProbe, useUpstreamReadiness } from './gateway/health';
import { graphiqlForAllowedHosts } from './gateway/hosts';
import { createMetrics } from './gateway/metrics';
import {
  combineEvents,
  maskLoggerOf,
  requestTallyEvents,
  useRequestLog,
  yogaLoggerOf,
} from './gateway/observability';
import { PERSISTED_PARAM_NAMES, persistedOperationsPlugins } from './gateway/persisted';
import { operationDeadline, queryLimits } from './gateway/query-limits';
import { requestGuards, securityOptions, securityPlugins } from './gateway/security';
import { liveAttemptEvents } from './live/attempts';
import { LiveEvents } from './live/subscriptions';
import { type Logger, silentLogger } from './log';
import { schema } from './schema';
import { ReadCache, type TransportOptions, type UpstreamEvents, UpstreamTransport } from './upstream';

export interface GatewayDeps {
  /**
   * Shared with the caller (tests read its stats); created from config when omitted. One given here
   * needs liveAttemptEvents (src/live/attempts.ts) among its events for the live poll budget to count.
   */
  readonly transport?: UpstreamTransport;
  /** Request lines and masked errors (src/log.ts); silent when omitted. */
  readonly logger?: Logger;
  /** Upstream hooks for a transport created here, besides the gateway's own metrics and log tallies. */
  readonly events?: UpstreamEvents;
  /** Ids that exist upstream, for GraphiQL's example variables (main.ts: the stand-in's demo data). */
  readonly graphiqlExamples?: ExampleIds;
  /** The upstream is the embedded stand-in (main.ts): nothing real is at stake, any origin in development. */
  readonly standIn?: boolean;
}

/** True when every root field of the operation is introspection, which needs no credential. */
function onlyIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.every(
    (s) =>
      s.kind === Kind.FIELD &&
      (s.name.value === '__schema' || s.name.value === '__type' || s.name.value === '__typename'),
  );
}

/** Why an operation may not run: no credential (unless only introspection), or a write without the write scope. */
function refusalOf(args: {
  document: { definitions: readonly DefinitionNode[] };
  operationName?: string | null;
  contextValue: Context;
}): GatewayError | undefined {
  const operation = args.document.definitions.find(
    (d: DefinitionNode): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION &&
      (args.operationName == null || d.name?.value === args.operationName),
  );
  if (!operation) return undefined;
  const ctx = args.contextValue;
  if (!ctx.authenticated && !onlyIntrospection(operation)) return missingCredential();
  if (operation.operation === 'mutation' && !ctx.scopes.includes('write')) {
    return new GatewayError('FORBIDDEN', 'This token may read but not write.', { httpStatus: 403 });
  }
  return undefined;
}

/** Refuses operations that reach the upstream without a credential, and writes without the write scope. */
const accessControl: Plugin<Context> = {
  onExecute({ args, setResultAndStopExecution }) {
    const refusal = refusalOf(args);
    if (refusal) setResultAndStopExecution({ errors: [toGraphQLError(refusal)] });
  },
  // Subscriptions (SSE and graphql-ws) take this path instead of onExecute.
  onSubscribe({ args, setResultAndStopExecution }) {
    const refusal = refusalOf(args);
    if (refusal) setResultAndStopExecution({ errors: [toGraphQLError(refusal)] });
  },
};

/** The transport's settings, every one from the config (tests build transports with it too). */
/** The transport's options: the config's upstream section as it is, at the URL the gateway talks to. */
export function transportOptions(config: Config, baseUrl: string): TransportOptions {
  const { url: _url, apiKey: _key, ...upstream } = config.upstream;
  return { ...upstream, baseUrl };
}

export function createGateway(config: Config, deps: GatewayDeps = {}) {
  const upstreamUrl = config.upstream.url;
  if (upstreamUrl === undefined)
    throw new Error('createGateway needs an upstream URL (main.ts starts the stand-in).');
  const metrics = createMetrics({ maxOperationNames: config.metrics.maxOperationNames });
  const transport =
    deps.transport ??
    new UpstreamTransport({
      ...transportOptions(config, upstreamUrl),
      events: combineEvents(metrics.events, requestTallyEvents, liveAttemptEvents, deps.events),
    });
  // Shared by every request's client over this transport; off unless CACHE_TTL_MS > 0.
  const cache =
    config.cache.ttlMs > 0
      ? new ReadCache({ ttlMs: config.cache.ttlMs, maxEntries: config.cache.maxEntries })
      : undefined;
  const logger = deps.logger ?? silentLogger();
  const readiness = createReadinessProbe({
    apiKey: config.upstream.apiKey,
    timeoutMs: config.readiness.timeoutMs,
    cacheMs: config.readiness.cacheMs,
    transport,
  });
  const persisted = persistedOperationsPlugins(config.persisted, schema);
  const live = new LiveEvents(config, { transport, registry: metrics.registry, logger });

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
        );
      } catch (error) {
        if (error instanceof GatewayError) throw toGraphQLError(error);
        throw error;
      }
    },
    plugins: [
      // Before the request log, which reads the codes it fills in.
      useErrorCodes,
      useRequestLog(logger),
      // Host and Origin: before anything that answers or runs.
      ...requestGuards(config, { standIn: deps.standIn }),
      metrics.plugin,
      useUpstreamReadiness(readiness),
      ...persisted,
      ...securityPlugins(config),
      queryLimits(config.limits),
      // Before operationDeadline, which must wrap the execute function this one sets.
      compiledExecution(),
      operationDeadline(config.limits),
      accessControl,
    ],
  });

  return {
    yoga,
    transport,
    /** The gateway's own Prometheus registry (served at /metrics). */
    metrics: metrics.registry,
    /** Live tunnel events: their pollers and open streams. */
    live,
    async close() {
      await live.close();
      await transport.close();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
