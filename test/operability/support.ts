// A gateway whose log lines are kept in memory, in front of a stand-in, both on loopback.
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { createGateway, type Gateway } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { type AccountSeed, type Sandbox, startSandbox } from '../../src/sandbox';
import { KEY, listen } from '../support/stack';

export interface LoggedStack {
  sandbox: Sandbox;
  gateway: Gateway;
  /** e.g. http://127.0.0.1:40123 (no path). */
  base: string;
  /** Every log line written so far, parsed. */
  lines(): Record<string, unknown>[];
  /** The raw log text, to check what never appears in it. */
  text(): string;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startLogged(
  options: { accounts?: Record<string, AccountSeed>; env?: Record<string, string> } = {},
): Promise<LoggedStack> {
  const sandbox = await startSandbox({ rateLimit: false, accounts: options.accounts ?? { [KEY]: {} } });
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    NGROK_API_URL: sandbox.url,
    LOG_LEVEL: 'debug',
    // No gateway budget unless a test sets one (test/budget covers it).
    UPSTREAM_RATE_LIMIT_PER_MIN: '0',
    ...options.env,
  });
  const gateway = createGateway(config, { logger: createLogger(config, stream) });
  const server = createServer(gateway.yoga);
  const base = await listen(server);
  return {
    sandbox,
    gateway,
    base,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    post: (body, headers = {}) =>
      fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
        body: JSON.stringify(body),
      }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      await sandbox.close();
    },
  };
}
