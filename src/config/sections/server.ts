// The listening HTTP server: where, how patient with slow clients, how long a shutdown may take,
// whether it compresses its answers.

import { option, unset } from '../option';
import { boolean, integer, oneOf, text } from '../parsers';
import { NODE_ENVS, type NodeEnv } from '../values';

export const server = {
  port: option({
    env: 'PORT',
    help: 'port the gateway listens on',
    default: 4000,
    parse: integer(0, 65535),
  }),
  host: unset<string>({
    env: 'HOST',
    help: 'interface to listen on (127.0.0.1 for loopback only)',
    defaultText: '0.0.0.0 (127.0.0.1 on the stand-in)',
    parse: text,
  }),
  nodeEnv: option<NodeEnv>({
    env: 'NODE_ENV',
    help: 'environment',
    default: 'development',
    parse: oneOf(NODE_ENVS),
  }),
  shutdownTimeoutMs: option({
    env: 'SHUTDOWN_TIMEOUT_MS',
    help: 'on SIGTERM/SIGINT, how long in-flight operations may finish before connections are cut',
    default: 10_000,
    parse: integer(0, 600_000),
  }),
  headersTimeoutMs: option({
    env: 'SERVER_HEADERS_TIMEOUT_MS',
    help: 'a client that has not sent its request headers within this time gets 408 and is disconnected',
    default: 10_000,
    parse: integer(100, 600_000),
  }),
  requestTimeoutMs: option({
    env: 'SERVER_REQUEST_TIMEOUT_MS',
    help: 'a client that has not sent its whole request (headers and body) within this time gets 408 and is disconnected',
    default: 30_000,
    parse: integer(100, 3_600_000),
  }),
  keepAliveTimeoutMs: option({
    env: 'SERVER_KEEPALIVE_TIMEOUT_MS',
    help: "idle time before a keep-alive client connection is closed; keep it above a load balancer's",
    default: 5_000,
    parse: integer(100, 600_000),
  }),
  maxConnections: option({
    env: 'SERVER_MAX_CONNECTIONS',
    help: 'client connections open at once; beyond it new ones are dropped until one closes',
    default: 1024,
    parse: integer(1, 1_000_000),
  }),
  compression: option({
    env: 'COMPRESSION',
    help: 'compress answers with gzip or br when the client accepts it (off: a proxy in front compresses)',
    default: true,
    parse: boolean,
  }),
  compressionMinBytes: option({
    env: 'COMPRESSION_MIN_BYTES',
    help: 'smallest answer body compressed, in bytes (smaller ones cost more CPU than they save)',
    default: 1024,
    parse: integer(0, 100_000_000),
  }),
};
