// Entry point: read the config, start the embedded stand-in when no upstream is configured,
// listen, and shut down cleanly on SIGTERM/SIGINT.
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { createGateway } from './app';
import {
  type Config,
  ConfigError,
  DEFAULT_CONFIG_FILE,
  helpText,
  isLoopback,
  listenHost,
  loadConfig,
  versionText,
} from './config';
import { type ExampleIds, exampleIdsFrom } from './gateway/graphiql';
import { startTracing, tracesUrl } from './gateway/observability';
import { keyProtection } from './gateway/security';
import { attachWebSocket } from './gateway/transports';
import { createHttpServer } from './http-server';
import { createLogger, type Logger } from './log';

interface Running {
  /** Where to reach the GraphQL endpoint from this machine (localhost when every interface is bound). */
  readonly url: string;
  /** Writes one line where the start-up lines went (the log). */
  readonly say: (line: string) => void;
  /** SHUTDOWN_TIMEOUT_MS: how long close() lets in-flight operations finish. */
  readonly shutdownTimeoutMs: number;
  close(): Promise<void>;
}

async function embeddedStandIn(
  config: Config,
): Promise<{ config: Config; examples: ExampleIds | undefined; close: () => Promise<void> }> {
  if (config.server.nodeEnv === 'production') {
    throw new ConfigError(
      'NGROK_API_URL / NGROK_API_KEY: no upstream configured; in production the gateway will not serve the local stand-in.',
    );
  }
  const { startSandbox, demoData, DEFAULT_API_KEY: key } = await import('./sandbox');
  const seed = demoData();
  const sandbox = await startSandbox({ accounts: { [key]: seed }, edgesWritable: config.live.edgesWritable });
  // One change per poll: a subscriber sees one event at each LIVE_POLL_INTERVAL_MS.
  if (config.live.standinChurn) sandbox.churn(key, { everyMs: config.live.pollIntervalMs });
  // The gateway holds the stand-in's key and listens on loopback: GraphiQL needs no header.
  const host = config.server.host ?? '127.0.0.1';
  return {
    config: Object.freeze({
      ...config,
      server: Object.freeze({ ...config.server, host }),
      upstream: Object.freeze({ ...config.upstream, url: sandbox.url, apiKey: key }),
    }),
    examples: exampleIdsFrom(seed),
    close: () => sandbox.close(),
  };
}

/**
 * `log` receives the start-up lines; by default they go to the JSON (or, in development, pretty) log.
 * `logger` replaces the process logger (tests pass a silent one, so nothing reaches stdout).
 */
export async function start(
  config: Config,
  log?: (line: string) => void,
  logger: Logger = createLogger(config),
): Promise<Running> {
  const standIn = config.upstream.url === undefined ? await embeddedStandIn(config) : undefined;
  const effective = standIn?.config ?? config;
  const host = listenHost(effective.server);
  if (
    effective.upstream.apiKey !== undefined &&
    effective.access.gatewayTokens.length === 0 &&
    !isLoopback(host)
  ) {
    await standIn?.close();
    throw new ConfigError(
      'GATEWAY_TOKENS: required when NGROK_API_KEY is set and HOST is not loopback (anyone could use the key).',
    );
  }
  // Where it listens and what it serves: printed whatever LOG_LEVEL (at info), unless it is silent.
  const startup =
    logger.isLevelEnabled('info') || logger.level === 'silent' ? logger : logger.child({}, { level: 'info' });
  const say = log ?? ((line: string) => startup.info(line));
  // Loads the OpenTelemetry SDK only when an OTLP endpoint is configured.
  const tracing = await startTracing(effective.tracing, logger);
  const gateway = createGateway(effective, {
    logger,
    graphiqlExamples: standIn?.examples,
    standIn: standIn !== undefined,
    tracing,
  });
  const server = createHttpServer(gateway.handler, effective.server);
  const websocket = attachWebSocket(server, gateway, effective);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(effective.server.port, host, resolve);
    });
  } catch (error) {
    await websocket.close();
    await gateway.close();
    await standIn?.close();
    throw listenError(error, host, effective.server.port);
  }
  const address = server.address();
  const bound =
    typeof address === 'object' && address ? address : { address: host, port: effective.server.port };
  const everywhere = bound.address === '0.0.0.0' || bound.address === '::';
  const base = (h: string) => `http://${h.includes(':') ? `[${h}]` : h}:${bound.port}`;
  const url = `${base(everywhere ? 'localhost' : bound.address)}/graphql`;
  say(
    `GraphQL gateway listening on ${base(bound.address)}/graphql${everywhere ? ` (every interface: reachable from other machines; here ${url})` : ''}${effective.server.nodeEnv === 'production' ? '' : ' (GraphiQL: open it in a browser)'}`,
  );
  say(`Probes and metrics: ${url.replace(/\/graphql$/, '')}/health, /readiness, /metrics`);
  say(
    standIn
      ? `Upstream: a local stand-in of the ngrok API with demo data at ${effective.upstream.url} (no real account is used)${effective.live.standinChurn ? `; a demo tunnel comes online or goes offline every ${effective.live.pollIntervalMs / 1000} s, one event per poll` : ''}${effective.live.edgesWritable ? '; edges are writable (a demo: the real API refuses edge writes)' : ''}. No Authorization header is needed: the gateway holds the stand-in's key.`
      : `Upstream: ${effective.upstream.url} (${effective.upstream.apiKey === undefined ? 'each client forwards its own API key' : 'server-held API key'}).`,
  );
  if (tracing) say(`Tracing: spans sent over OTLP/HTTP to ${tracesUrl(effective.tracing)}`);
  const protection = keyProtection(effective, { standIn: standIn !== undefined });
  if (protection) say(protection);
  return {
    url,
    say,
    shutdownTimeoutMs: effective.server.shutdownTimeoutMs,
    /**
     * Graceful: stop accepting, let in-flight operations finish for up to SHUTDOWN_TIMEOUT_MS, then
     * cut what is left, close the upstream pool and the stand-in.
     */
    async close() {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // Open subscriptions complete (SSE: a complete event; graphql-ws: a complete message), then sockets close.
      await gateway.live.close();
      await websocket.close();
      // Keep-alive sockets close as soon as they are idle, including those whose answer just went out.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      let bound: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        drained.then(() => false),
        new Promise<boolean>((resolve) => {
          bound = setTimeout(() => resolve(true), effective.server.shutdownTimeoutMs);
        }),
      ]);
      clearInterval(sweep);
      clearTimeout(bound);
      if (late) {
        server.closeAllConnections();
        await gateway.transport.destroy();
      }
      await gateway.close();
      await standIn?.close();
    },
  };
}

/** Why listening failed, naming the address and what to do (EADDRINUSE, EACCES, EADDRNOTAVAIL). */
function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE')
    return new Error(
      `${where} is already in use (another gateway, or another program, listens there): stop it, or choose another port (PORT=4001 npm start, or npm start -- --port 4001).`,
    );
  if (code === 'EACCES')
    return new Error(`${where} needs privileges to listen on: choose a port above 1023 (PORT=4000).`);
  if (code === 'EADDRNOTAVAIL')
    return new Error(`${where} is not an address of this machine: use 127.0.0.1 or 0.0.0.0.`);
  return error instanceof Error ? error : new Error(String(error));
}

/** The variables of a .env file (Node's own parser), or none when there is no such file. */
function readEnvFile(path: string): Record<string, string | undefined> {
  return existsSync(path) ? parseEnv(readFileSync(path, 'utf8')) : {};
}

/** What close() may take beyond SHUTDOWN_TIMEOUT_MS (the upstream pool, Redis, spans) before exit is forced. */
const SHUTDOWN_GRACE_MS = 2_000;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(helpText());
    return;
  }
  if (argv.includes('--version')) {
    console.log(versionText());
    return;
  }
  let running: Running;
  try {
    // Precedence: flags, then the real environment, then .env, then the config file, then the defaults.
    running = await start(loadConfig({ ...readEnvFile('.env'), ...process.env }, argv, DEFAULT_CONFIG_FILE));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    const code = (error as NodeJS.ErrnoException).code;
    console.error(`Could not start: ${code ?? (error as Error).message}`);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.say(`${signal}: shutting down`);
    // Whatever close() waits on (a stream that does not end, a stdout that takes nothing), the
    // process is gone shortly after SHUTDOWN_TIMEOUT_MS.
    setTimeout(() => process.exit(1), running.shutdownTimeoutMs + SHUTDOWN_GRACE_MS).unref();
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

// Run only as the entry point, so tests can import start().
if (process.argv[1] && /main\.(?:ts|js)$/.test(process.argv[1])) void main();
