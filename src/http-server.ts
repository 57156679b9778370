// The gateway's HTTP server: node:http with bounds on slow clients. Node's defaults let a client
// take 60 s to send its headers and 300 s for its body, with no cap on connections: thousands of
// header-dripping sockets starved every other client. Here a connection that has not sent its headers
// within SERVER_HEADERS_TIMEOUT_MS, or its whole request within SERVER_REQUEST_TIMEOUT_MS, is answered
// 408 and closed; at most SERVER_MAX_CONNECTIONS are open at once (more are dropped at once, so memory
// and descriptors stay bounded), and because drippers are closed within seconds, slots free up quickly
// for real clients.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { ServerConfig } from './config';

export type ServerLimits = Pick<
  ServerConfig,
  'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'
>;

/** How often Node checks the header and request timeouts (its default, 30 s, would let them run late). */
const checkingIntervalMs = (limits: ServerLimits): number => Math.min(1000, limits.headersTimeoutMs);

export function createHttpServer(handler: RequestListener, limits: ServerLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
