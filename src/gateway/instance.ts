// What createGateway (app.ts) hands back: the yoga instance and the parts its server, its shutdown
// and the tests reach. Declared here, below app.ts, so the servers built on it (transports/websocket.ts) need
// not import the file that assembles everything.

import type { RequestListener } from 'node:http';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import type { Context } from '../context';
import type { Live } from '../live';
import type { SharedState } from '../shared-state';
import type { UpstreamTransport } from '../upstream';
import type { RequestLog } from './observability/request-log';
import type { PersistedOperations } from './persisted/persisted';
import type { RequestGuard } from './security/refusal';
import type { LinkCarrier } from './transports/subscriber-links';

export interface Gateway {
  readonly yoga: YogaServerInstance<LinkCarrier, Context>;
  /** What node:http serves: yoga behind compression (COMPRESSION). */
  readonly handler: RequestListener;
  readonly transport: UpstreamTransport;
  /** The Host and Origin checks every request passes, which WebSocket upgrades pass too. */
  readonly guards: readonly RequestGuard[];
  /** Persisted operations and APQ: yoga's plugins, and the same rules for graphql-ws messages. */
  readonly persisted: PersistedOperations;
  /** One line per request, and per graphql-ws operation (transports/websocket.ts). */
  readonly requestLog: RequestLog;
  /** The gateway's own Prometheus registry (served at /metrics). */
  readonly metrics: Registry;
  /** Live tunnel events: their pollers and open streams. */
  readonly live: Live;
  /** State shared with other replicas through Redis (REDIS_URL), else per process. */
  readonly shared: SharedState;
  /** Ends live streams, then closes the upstream pool and the shared state. */
  close(): Promise<void>;
}
