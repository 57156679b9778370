// The processes the benchmark measures: the stand-in (forked, driven over IPC) and the built
// gateway (`node dist/main.js`), each on its own loopback port.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AccountSeed } from '../../sandbox';
import type { CallCounts, StandInReply, StandInRequest } from './protocol';

type Pending = (reply: StandInReply) => void;
/** Distributes `Omit` over the request union, so each variant keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export class StandIn {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly account: AccountSeed,
  ) {
    child.on('message', (reply: StandInReply) => {
      if (!('id' in reply)) return;
      this.pending.get(reply.id)?.(reply);
      this.pending.delete(reply.id);
    });
  }

  /** `args`: more of the stand-in's flags (--live-queries, --rate-limit N). */
  static async start(entry: string, keys: readonly string[], args: readonly string[] = []): Promise<StandIn> {
    const child = fork(entry, [...keys.flatMap((k) => ['--keys', k]), ...args], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const ready = await new Promise<StandInReply>((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the stand-in exited with ${code} before it was ready`)));
    });
    if (ready.type !== 'ready') throw new Error('the stand-in did not say it was ready');
    return new StandIn(child, ready.url, ready.account);
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  private ask(request: WithoutId<StandInRequest>): Promise<StandInReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.send({ ...request, id });
    });
  }

  async setLatency(ms: number): Promise<void> {
    await this.ask({ type: 'latency', ms });
  }

  /** Tunnels of `key`'s account come and go every `everyMs` (0 stops). */
  async churn(key: string, everyMs: number): Promise<void> {
    await this.ask({ type: 'churn', key, everyMs });
  }

  async resetCalls(): Promise<void> {
    await this.ask({ type: 'reset' });
  }

  async calls(): Promise<CallCounts> {
    const reply = await this.ask({ type: 'calls' });
    if (reply.type !== 'calls') throw new Error('unexpected reply from the stand-in');
    return reply;
  }

  async stop(): Promise<void> {
    await stopChild(this.child, () => this.child.disconnect());
  }
}

export interface GatewayProcess {
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the first answered request. */
  readonly startupMs: number;
  stop(): Promise<void>;
}

/** A port that was free a moment ago (the gateway takes it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  readonly headers?: Record<string, string>;
  readonly timeoutMs?: number;
  readonly nodeArgs?: readonly string[];
  /** The port as `--port N` instead of PORT (the yoga floor, which reads no environment). */
  readonly portArg?: boolean;
  /** Arguments after the entry (the yoga floor's `--latency-ms N`). */
  readonly args?: readonly string[];
}

/** Spawns the built gateway (or the yoga floor) and waits until it answers a GraphQL request. */
export async function startGateway(
  entry: string,
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<GatewayProcess> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  const port = await freePort();
  const started = performance.now();
  const args = [...(options.portArg ? ['--port', String(port)] : []), ...(options.args ?? [])];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry, ...args], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Drained so that logging never blocks the gateway; the tail explains a failed start.
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}/graphql`;
  const deadline = started + (options.timeoutMs ?? 15_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}:\n${tail}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the gateway did not answer in time:\n${tail}`);
    }
    if (await answers(url, options.headers ?? {})) break;
    await sleep(5);
  }
  const startupMs = performance.now() - started;
  return {
    url,
    pid: child.pid ?? 0,
    startupMs,
    stop: () => stopChild(child, () => child.kill('SIGTERM')),
  };
}

async function answers(url: string, headers: Record<string, string>): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{"query":"{ __typename }"}',
      signal: AbortSignal.timeout(1000),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess, ask: () => void): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  ask();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process in MB (Linux /proc); undefined elsewhere. */
export function residentMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used, in ms (Linux /proc; 10 ms resolution). */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Samples a process's RSS until stopped; returns every sample in MB with its time in seconds. */
export function sampleRss(pid: number, everyMs = 100) {
  const samples: { t: number; mb: number }[] = [];
  const t0 = performance.now();
  const take = () => {
    const mb = residentMb(pid);
    if (mb !== undefined) samples.push({ t: (performance.now() - t0) / 1000, mb });
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}
