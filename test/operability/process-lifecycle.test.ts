// The gateway process from the outside, as `npm start` runs it (test/operability/process.ts): a busy
// port named with what to do; the "listening on" line whatever LOG_LEVEL; `GET /` pointing to
// /graphql; and SIGTERM completing (exit 0) within its timeout whatever stdout does: a closed pipe
// (`node dist/main.js | head -1`, where pino's own flush at exit retried EPIPE forever) or a full
// one (a reader that stops reading).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleMain, startProcess } from './process';

const root = fileURLToPath(new URL('../../', import.meta.url));
let main = '';
let removeBundle = () => {};
beforeAll(async () => {
  ({ main, remove: removeBundle } = await bundleMain());
});
afterAll(() => removeBundle());

/** Resolves with the exit code, or rejects when the process has not exited within `ms`. */
function exitWithin(child: ReturnType<typeof spawn>, ms: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => {
      // The whole group: a shell's pipeline too (every shell here is spawned detached, its own group).
      try {
        if (child.pid === undefined) throw new Error('no pid');
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(new Error(`still running ${ms} ms after SIGTERM`));
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Waits for a condition, polling, with a generous deadline. */
async function until(condition: () => boolean, seen: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; so far: ${seen()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `count` GraphQL requests, ten at a time: each one a request log line on stdout. */
async function requests(base: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, () =>
        fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        }).then((r) => r.text()),
      ),
    );
  }
}

const LOGGING_SCRIPT = [
  "import { createLogger } from './src/log.ts';",
  "const log = createLogger({ log: { level: 'info', format: 'json' }, server: { nodeEnv: 'test' } });",
  "for (let i = 0; i < Number(process.env.LINES); i++) log.info('line ' + i + ' ' + 'x'.repeat(200));",
  "process.stdin.once('data', () => { log.info('the last line'); process.exit(0); });",
].join('\n');

/**
 * A process logging `lines` lines through createLogger (JSON to stdout), which logs one more line and
 * exits at once when told on stdin: what the gateway does on SIGTERM, without its timing. `pipeline`:
 * run as `node … | head -1` (its exit code then on stderr).
 */
function loggingProcess(lines: number, pipeline = false): ReturnType<typeof spawn> {
  const node = `"${process.execPath}" --import tsx --input-type=module -e "$SCRIPT"`;
  const command = pipeline
    ? `{ ${node}; echo "exit $?" >&2; } | { head -1; echo "head left" >&2; }`
    : `exec ${node}`;
  return spawn('sh', ['-c', command], {
    cwd: root,
    detached: true,
    env: { PATH: process.env.PATH ?? '', LINES: String(lines), SCRIPT: LOGGING_SCRIPT },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

describe('the log at exit', () => {
  it('stdout a closed pipe (`| head -1`): the last line is given up and the process exits 0', async () => {
    const child = loggingProcess(1, true);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.stdout?.resume();
    // head has its line and is gone: the last line will still be buffered when exit comes.
    await until(
      () => stderr.includes('head left'),
      () => stderr,
    );
    child.stdin?.end('exit\n');
    expect(await exitWithin(child, 30_000)).toBe(0);
    expect(stderr).toBe('head left\nexit 0\n');
  }, 60_000);

  it('a full stdout: what is left is given up after a second and the process exits', async () => {
    // About 1.3 MB of lines, far more than a pipe holds, and not read.
    const child = loggingProcess(5000);
    child.stdout?.pause();
    child.stdin?.end('exit\n');
    expect(await exitWithin(child, 30_000)).toBe(0);
  }, 60_000);
});

describe('the gateway process', () => {
  let busy: Server;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('a port in use stops start-up with one line naming the address and what to do', async () => {
    const address = busy.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const child = spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    expect(await exitWithin(child, 30_000)).toBe(1);
    expect(stderr).toBe(
      `Could not start: 127.0.0.1:${port} is already in use (another gateway, or another program, listens there): stop it, or choose another port (PORT=4001 npm start, or npm start -- --port 4001).\n`,
    );
  }, 60_000);

  it('prints the listening line at LOG_LEVEL=warn, and GET / points to /graphql', async () => {
    const gateway = await startProcess(main, { LOG_LEVEL: 'warn' });
    try {
      expect(gateway.output()).toContain(`GraphQL gateway listening on ${gateway.base}/graphql`);
      const root = await fetch(`${gateway.base}/`);
      expect(root.status).toBe(200);
      expect(await root.text()).toBe(
        [
          'ngrok GraphQL gateway: GraphQL is at /graphql (POST or GET; WebSocket: graphql-ws; subscriptions also over SSE).',
          'GraphiQL: open /graphql in a browser.',
          'Probes and metrics: /health, /readiness, /metrics.',
          '',
        ].join('\n'),
      );
      const browser = await fetch(`${gateway.base}/`, {
        headers: { accept: 'text/html' },
        redirect: 'manual',
      });
      expect([browser.status, browser.headers.get('location')]).toEqual([302, '/graphql']);
      expect((await fetch(`${gateway.base}/nothing-here`)).status).toBe(404);
    } finally {
      await gateway.stop();
    }
  }, 60_000);

  it('SIGTERM completes with stdout a closed pipe (`node dist/main.js | head -1`)', async () => {
    const child = spawn(
      'sh',
      [
        '-c',
        `{ "${process.execPath}" "${main}" & echo "pid $!" >&2; wait $!; echo "exit $?" >&2; } | { head -1; echo "head left" >&2; }`,
      ],
      {
        cwd: root,
        detached: true,
        env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_FORMAT: 'json', SHUTDOWN_TIMEOUT_MS: '2000' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    await until(
      () => stderr.includes('head left'),
      () => stderr,
    );
    expect(stdout).toMatch(/"msg":"GraphQL gateway listening on /);
    const pid = Number(/^pid (\d+)$/m.exec(stderr)?.[1]);
    process.kill(pid, 'SIGTERM');
    expect(await exitWithin(child, 60_000)).toBe(0);
    expect(stderr).toMatch(/^exit 0$/m);
  }, 120_000);

  it('SIGTERM completes with stdout a full pipe (a reader that stopped reading)', async () => {
    const gateway = await startProcess(main, { SHUTDOWN_TIMEOUT_MS: '2000' });
    gateway.child.stdout?.pause();
    // About 300 bytes a line: far more than the pipe's 64 KiB.
    await requests(gateway.base, 600);
    gateway.child.kill('SIGTERM');
    expect(await exitWithin(gateway.child, 60_000)).toBe(0);
  }, 180_000);
});
