// createGateway(config) → the yoga instance with its plugins, limits, masking and context.
// It does not listen: main.ts (or a test) serves it.
import { type DefinitionNode, Kind, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from './config';
import { type Context, createContext } from './context';
import { GatewayError, missingCredential } from './errors';
import { credentialOf } from './gateway/credentials';
import { createMaskError, toGraphQLError } from './gateway/errors';
import type { ExampleIds } from './gateway/examples';
import { compiledExecution } from './gateway/execution';
import { graphiqlOptions, renderOfflineGraphiQL } from './gateway/graphiql';
import { createReadinessProbe, useUpstreamReadiness } from './gateway/health';
import { operationDeadline, queryLimits } from './gateway/limits';
import { createMetrics } from './gateway/metrics';
import {
  combineEvents,
  maskLoggerOf,
  requestTallyEvents,
  useRequestLog,
  yogaLoggerOf,
} from './gateway/observability';
import { PERSISTED_PARAM_NAMES, persistedOperationsPlugins } from './gateway/persisted';
import { securityOptions, securityPlugins } from './gateway/security';
import { type Logger, silentLogger } from './log';
import { schema } from './schema';
import { ReadCache, UpstreamTransport } from './upstream';
import type { UpstreamEvents } from './upstream/http';

export interface GatewayDeps {
  /** Shared with the caller (tests read its stats); created from config when omitted. */
  readonly transport?: UpstreamTransport;
  /** Request lines and masked errors (src/log.ts); silent when omitted. */
  readonly logger?: Logger;
  /** Upstream hooks for a transport created here, besides the gateway's own metrics and log tallies. */
  readonly events?: UpstreamEvents;
  /** Ids that exist upstream, for GraphiQL's example variables (main.ts: the stand-in's demo data). */
  readonly graphiqlExamples?: ExampleIds;
}

/** True when every root field of the operation is introspection, which needs no credential. */
function onlyIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.every(
    (s) =>
      s.kind === Kind.FIELD &&
      (s.name.value === '__schema' || s.name.value === '__type' || s.name.value === '__typename'),
  );
}

/** Refuses operations that reach the upstream without a credential, and writes without the write scope. */
const accessControl: Plugin<Context> = {
  onExecute({ args, setResultAndStopExecution }) {
    const operation = args.document.definitions.find(
      (d: DefinitionNode): d is OperationDefinitionNode =>
        d.kind === Kind.OPERATION_DEFINITION &&
        (args.operationName == null || d.name?.value === args.operationName),
    );
    if (!operation) return;
    const ctx = args.contextValue;
    let refusal: GatewayError | undefined;
    if (!ctx.authenticated && !onlyIntrospection(operation)) {
      refusal = missingCredential();
    } else if (operation.operation === 'mutation' && !ctx.scopes.includes('write')) {
      refusal = new GatewayError('FORBIDDEN', 'This token may read but not write.', { httpStatus: 403 });
    }
    if (refusal) setResultAndStopExecution({ errors: [toGraphQLError(refusal)] });
  },
};

export function createGateway(config: Config, deps: GatewayDeps = {}) {
  const upstreamUrl = config.ngrokApiUrl;
  if (upstreamUrl === undefined)
    throw new Error('createGateway needs an upstream URL (main.ts starts the stand-in).');
  const metrics = createMetrics();
  const transport =
    deps.transport ??
    new UpstreamTransport({
      baseUrl: upstreamUrl,
      apiVersion: config.ngrokApiVersion,
      timeoutMs: config.upstreamTimeoutMs,
      connections: config.upstreamConnections,
      keepAliveMs: config.upstreamKeepAliveMs,
      retries: config.upstreamRetries,
      retryBaseMs: config.upstreamRetryBaseMs,
      maxConcurrency: config.upstreamMaxConcurrency,
      queueLimit: config.upstreamQueueLimit,
      breakerFailureThreshold: config.breakerFailureThreshold,
      breakerCooldownMs: config.breakerCooldownMs,
      events: combineEvents(metrics.events, requestTallyEvents, deps.events),
    });
  // Shared by every request's client over this transport; off unless CACHE_TTL_MS > 0.
  const cache =
    config.cacheTtlMs > 0
      ? new ReadCache({ ttlMs: config.cacheTtlMs, maxEntries: config.cacheMaxEntries })
      : undefined;
  const logger = deps.logger ?? silentLogger();
  const readiness = createReadinessProbe({
    baseUrl: upstreamUrl,
    apiVersion: config.ngrokApiVersion,
    apiKey: config.ngrokApiKey,
    timeoutMs: config.readinessTimeoutMs,
    cacheMs: config.readinessCacheMs,
    transport,
  });
  const persisted = persistedOperationsPlugins(config, schema);

  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    ...securityOptions(config),
    graphiql: graphiqlOptions(config, deps.graphiqlExamples),
    renderGraphiQL: renderOfflineGraphiQL,
    ...(persisted.length > 0 ? { extraParamNames: PERSISTED_PARAM_NAMES } : {}),
    logging: yogaLoggerOf(logger),
    maskedErrors: { maskError: createMaskError(maskLoggerOf(logger)) },
    context: ({ request }) => {
      try {
        return createContext(transport, credentialOf(request.headers.get('authorization'), config), cache);
      } catch (error) {
        if (error instanceof GatewayError) throw toGraphQLError(error);
        throw error;
      }
    },
    plugins: [
      useRequestLog(logger),
      metrics.plugin,
      useUpstreamReadiness(readiness),
      ...persisted,
      ...securityPlugins(config),
      queryLimits(config),
      // Before operationDeadline, which must wrap the execute function this one sets.
      compiledExecution(),
      operationDeadline(config),
      accessControl,
    ],
  });

  return {
    yoga,
    transport,
    /** The gateway's own Prometheus registry (served at /metrics). */
    metrics: metrics.registry,
    async close() {
      await transport.close();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
