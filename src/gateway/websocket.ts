// The graphql-ws protocol (graphql-transport-ws) on /graphql, next to yoga's HTTP and SSE. Each
// operation runs through yoga's own envelop (yoga.getEnveloped), so the same limits, masking,
// context and access control apply as over HTTP. Credentials: connectionParams.authorization, else
// the upgrade request's Authorization header.
import type { IncomingMessage, Server } from 'node:http';
import { type DocumentNode, type ExecutionArgs, GraphQLError } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Config } from '../config';
import { schema } from '../schema';
import type { Gateway } from './instance';
import { extractOperationId, loadPersistedOperations } from './persisted';

/** The same cadence as yoga's SSE pings: idle links stay open through proxies. */
const KEEP_ALIVE_MS = 12_000;

export interface WebSocketOptions {
  /** Ping interval; a client that misses a pong for as long is dropped. */
  readonly keepAliveMs?: number;
}

interface Enveloped {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
}

type WsConfig = Pick<Config, 'limits' | 'persisted'>;

/** The Authorization to use: connectionParams.authorization wins over the upgrade request's header. */
function authorizationOf(request: IncomingMessage, params: Readonly<Record<string, unknown>> | undefined) {
  const given = params?.authorization ?? params?.Authorization;
  if (typeof given === 'string') return given;
  return request.headers.authorization;
}

/** A Fetch Request carrying the connection's credential, which yoga's context factory reads. */
function requestOf(request: IncomingMessage, authorization: string | undefined): Request {
  const headers = new Headers();
  if (authorization !== undefined) headers.set('authorization', authorization);
  return new Request(new URL(request.url ?? '/graphql', 'http://localhost'), { headers });
}

const refusal = (message: string, code: string) => [new GraphQLError(message, { extensions: { code } })];

/**
 * Serves graphql-ws on the server's /graphql path. `close()` ends every socket (after the streams
 * have completed: see LiveEvents.close) and the WebSocket server.
 */
export function attachWebSocket(
  server: Server,
  gateway: Gateway,
  config: WsConfig,
  options: WebSocketOptions = {},
): { close(): Promise<void> } {
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: config.limits.maxBodyBytes });
  const persisted =
    config.persisted.file === undefined ? undefined : loadPersistedOperations(config.persisted.file, schema);

  /** The document a subscribe message names: a persisted id, or its query unless only persisted ones run. */
  function documentOf(payload: SubscribePayload, request: Request, parse: (source: string) => DocumentNode) {
    const id = extractOperationId(
      { query: payload.query, extensions: payload.extensions ?? undefined },
      request,
      {},
    );
    if (id !== null && persisted) {
      return persisted.get(id) ?? refusal('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
    }
    if (config.persisted.only) {
      return refusal(
        'Only persisted operations are accepted: send their id, not a query.',
        'PERSISTED_QUERY_ONLY',
      );
    }
    return parse(payload.query);
  }

  const disposable = useServer<Record<string, unknown> | undefined, { request: IncomingMessage }>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args) as never,
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args) as never,
      onSubscribe: async (ctx, _id, payload) => {
        const request = requestOf(
          ctx.extra.request,
          authorizationOf(ctx.extra.request, ctx.connectionParams),
        );
        const { schema, execute, subscribe, contextFactory, parse, validate } = gateway.yoga.getEnveloped({
          request,
          params: payload,
        });
        try {
          const document = documentOf(payload, request, parse);
          if (Array.isArray(document)) return document;
          const errors = validate(schema, document as DocumentNode);
          if (errors.length > 0) return errors;
          const args: ExecutionArgs = {
            schema,
            operationName: payload.operationName,
            document: document as DocumentNode,
            variableValues: payload.variables,
            contextValue: await contextFactory(),
            rootValue: { execute, subscribe } satisfies Enveloped,
          };
          return args;
        } catch (error) {
          // Parse errors and a refused credential (from the context) go back as errors, not a closed socket.
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
      },
    },
    wss,
    options.keepAliveMs ?? KEEP_ALIVE_MS,
  );

  return {
    async close() {
      // Completions already under way (their complete messages) reach the sockets before they close.
      await new Promise((resolve) => setImmediate(resolve));
      await disposable.dispose();
    },
  };
}
