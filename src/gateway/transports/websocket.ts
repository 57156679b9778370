// The graphql-ws protocol (graphql-transport-ws) on /graphql, next to yoga's HTTP and SSE. An upgrade
// is judged as an HTTP request is, before the socket opens (./upgrade-guards.ts). Each operation
// runs through yoga's own envelop (yoga.getEnveloped) on a POST carrying the upgrade's Host, Origin
// and other headers, with the upgrade request as `req`, so the same limits, masking, context and
// access control apply as over HTTP and plugins see the real caller. Credentials:
// connectionParams.authorization, else the upgrade request's Authorization header.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type DocumentNode, type ExecutionArgs, GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Config } from '../../config';
import type { Gateway } from '../instance';
import type { SocketOperationLog } from '../observability/request-log';
import { DroppingWebSocket } from './dropping-socket';
import { socketLink } from './subscriber-links';
import { credentialRefusal, headersOf, refuseUpgrade, upgradeRefusal } from './upgrade-guards';

/** graphql-ws's Unauthorized close code: its clients give up instead of reconnecting. */
const CLOSE_UNAUTHORIZED = 4401;

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

/** The Authorization to use: connectionParams.authorization wins over the upgrade request's header. */
function authorizationOf(request: IncomingMessage, params: Readonly<Record<string, unknown>> | undefined) {
  const given = params?.authorization ?? params?.Authorization;
  if (typeof given === 'string') return given;
  return request.headers.authorization ?? null;
}

/**
 * The request an operation runs on: the upgrade's headers with the connection's credential, as a
 * POST (like a JSON POST over HTTP: yoga runs no mutation over GET) to the upgrade's URL. CSRF
 * prevention, a request hook, has nothing to do here: the upgrade's Origin was checked.
 */
function requestOf(request: IncomingMessage, authorization: string | null): Request {
  const headers = headersOf(request);
  if (authorization === null) headers.delete('authorization');
  else headers.set('authorization', authorization);
  const path = request.url ?? '/graphql';
  let url: URL;
  try {
    url = new URL(path, `http://${request.headers.host ?? 'localhost'}`);
  } catch {
    url = new URL(path, 'http://localhost');
  }
  return new Request(url, { method: 'POST', headers });
}

/**
 * Serves graphql-ws on the server's /graphql path. `close()` ends every socket (after the streams
 * have completed: see Live.close) and the WebSocket server.
 */
export function attachWebSocket(
  server: Server,
  gateway: Gateway,
  config: Config,
  options: WebSocketOptions = {},
): { close(): Promise<void> } {
  const wss = new WebSocketServer({
    noServer: true,
    path: '/graphql',
    maxPayload: config.limits.maxBodyBytes,
    WebSocket: DroppingWebSocket,
  });

  /** Refused upgrades get the HTTP answer an HTTP request would get; the rest are handed to ws. */
  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    try {
      const refused = upgradeRefusal(gateway.guards, config, headersOf(request));
      if (refused) return refuseUpgrade(socket, refused, request.headers.accept ?? null);
      wss.handleUpgrade(request, socket, head, (ws) => {
        wss.emit('connection', ws, request);
        // A socket's 'error' is a client's protocol fault (an oversized or malformed frame) that ws has
        // already answered with its close code (1009, 1002...); graphql-ws would print it to the console.
        ws.removeAllListeners('error');
        ws.on('error', () => {});
      });
    } catch {
      // An event handler: a throw here would end the process.
      socket.destroy();
    }
  }
  server.on('upgrade', onUpgrade);

  // Each operation's log line (as an HTTP request gets one), by socket and operation id.
  const lines = new WeakMap<object, Map<string, SocketOperationLog>>();
  const lineOf = (ctx: object, id: string) => lines.get(ctx)?.get(id);
  const endLine = (ctx: object, id: string) => {
    lineOf(ctx, id)?.end();
    lines.get(ctx)?.delete(id);
  };

  const disposable = useServer<
    Record<string, unknown> | undefined,
    { socket: WebSocket; request: IncomingMessage }
  >(
    {
      // A credential in connection_init is judged there: a bad one closes the socket before any data, with
      // 4401 (which graphql-ws clients do not retry) and the error code as the reason.
      onConnect: (ctx) => {
        const refused = credentialRefusal(authorizationOf(ctx.extra.request, ctx.connectionParams), config);
        if (refused === undefined) return true;
        ctx.extra.socket.close(CLOSE_UNAUTHORIZED, refused.code);
        return false;
      },
      onNext: (ctx, id, _payload, _args, result) => lineOf(ctx, id)?.noteResult(result),
      onError: (ctx, id, _payload, errors) => {
        lineOf(ctx, id)?.noteResult({ errors });
        endLine(ctx, id);
      },
      onComplete: (ctx, id) => endLine(ctx, id),
      // Operations still open when the socket closes end with it.
      onClose: (ctx) => {
        for (const id of [...(lines.get(ctx)?.keys() ?? [])]) endLine(ctx, id);
      },
      execute: (args) => (args.rootValue as Enveloped).execute(args) as never,
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args) as never,
      onSubscribe: async (ctx, id, payload) => {
        const request = requestOf(
          ctx.extra.request,
          authorizationOf(ctx.extra.request, ctx.connectionParams),
        );
        const open = lines.get(ctx) ?? new Map<string, SocketOperationLog>();
        lines.set(ctx, open);
        open.set(id, gateway.requestLog.socketOperation(request));
        const { schema, execute, subscribe, contextFactory, parse, validate } = gateway.yoga.getEnveloped({
          request,
          params: payload,
          // What the socket holds unsent counts against a subscriber's cap; past it the socket closes.
          subscriberLink: socketLink(ctx.extra.socket),
          // As yoga's Node adapter passes it: whatever reads the client's address finds it here.
          req: ctx.extra.request,
        });
        try {
          const found = gateway.persisted.documentOf(payload);
          if (found instanceof GraphQLError) return [found];
          const document: DocumentNode = typeof found === 'string' ? parse(found) : found;
          const errors = validate(schema, document);
          if (errors.length > 0) return errors;
          const args: ExecutionArgs = {
            schema,
            operationName: payload.operationName,
            document,
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
      server.off('upgrade', onUpgrade);
      // Completions already under way (their complete messages) reach the sockets before they close.
      await new Promise((resolve) => setImmediate(resolve));
      await disposable.dispose();
    },
  };
}
