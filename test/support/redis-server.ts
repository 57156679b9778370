// A real redis-server (Debian package `redis-server`) on a loopback ephemeral port, for the shared
// state tests: started, waited for until it answers PING, stopped and restarted on the same port
// (outage tests), and always stopped in afterAll. Without the binary the Redis tests are skipped
// with a notice, except under CI, where they run and fail.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createConnection, createServer } from 'node:net';

const REDIS_SERVER_BINARY = process.env.REDIS_SERVER_BINARY ?? '/usr/bin/redis-server';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** False only when the binary is missing outside CI: then the caller skips, visibly. */
export const redisTestsRun: boolean = executable(REDIS_SERVER_BINARY) || process.env.CI !== undefined;

if (!redisTestsRun) {
  console.warn(
    `NOTICE: ${REDIS_SERVER_BINARY} not found: the Redis shared-state tests are SKIPPED. Install the Debian package redis-server (apt-get install redis-server) to run them.`,
  );
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

/** One PING over a raw socket: true when the answer is +PONG. */
const ping = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });

export class RedisServer {
  private child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts a server on a free port (another try on a fresh port if that one was taken meanwhile). */
  static async start(): Promise<RedisServer> {
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const server = new RedisServer(await freePort());
      try {
        await server.restart();
        return server;
      } catch (error) {
        lastError = error;
        await server.stop();
      }
    }
    throw lastError;
  }

  /** Starts the server again on the same port (after stop()). */
  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running');
    const child = spawn(
      REDIS_SERVER_BINARY,
      ['--port', String(this.port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
      { stdio: 'ignore' },
    );
    this.child = child;
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    const spawnError = new Promise<never>((_, reject) => child.once('error', reject));
    spawnError.catch(() => undefined);
    const deadline = Date.now() + 15_000;
    while (!(await Promise.race([ping(this.port), spawnError]))) {
      if (exited) throw new Error(`redis-server exited at start on port ${this.port}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on port ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Freezes the server for `ms` (SIGSTOP, then SIGCONT): connections stay open, nothing answers. */
  async stall(ms: number): Promise<void> {
    const child = this.child;
    if (!child) throw new Error('redis-server is not running');
    child.kill('SIGSTOP');
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      child.kill('SIGCONT');
    }
  }

  /** Stops the server and waits for the process to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }
}
