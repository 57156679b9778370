// createGateway(config) → the yoga instance with its plugins, limits, masking and context.
// It does not listen: main.ts (or a test) serves it.
import { type DefinitionNode, Kind, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from './config';
import { type Context, createContext } from './context';
import { GatewayError } from './errors';
import { credentialOf } from './gateway/credentials';
import { createMaskError, type MaskLogger, toGraphQLError } from './gateway/errors';
import { schema } from './schema';
import { UpstreamTransport } from './upstream';
import type { UpstreamEvents } from './upstream/http';

export interface GatewayDeps {
  /** Shared with the caller (tests read its stats); created from config when omitted. */
  readonly transport?: UpstreamTransport;
  readonly logger?: MaskLogger;
  /** Upstream hooks (metrics, logs) for a transport created here. */
  readonly events?: UpstreamEvents;
}

const silent: MaskLogger = { error: () => {} };

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
      refusal = new GatewayError('UNAUTHENTICATED', 'Send "Authorization: Bearer <token>".', {
        httpStatus: 401,
      });
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
  const transport =
    deps.transport ??
    new UpstreamTransport({
      baseUrl: upstreamUrl,
      apiVersion: config.ngrokApiVersion,
      timeoutMs: config.upstreamTimeoutMs,
      events: deps.events,
    });
  const logger = deps.logger ?? silent;

  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: config.nodeEnv !== 'production',
    maskedErrors: { maskError: createMaskError(logger) },
    context: ({ request }) => {
      try {
        return createContext(transport, credentialOf(request.headers.get('authorization'), config));
      } catch (error) {
        if (error instanceof GatewayError) throw toGraphQLError(error);
        throw error;
      }
    },
    plugins: [accessControl],
  });

  return {
    yoga,
    transport,
    async close() {
      await transport.close();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
