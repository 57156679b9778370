// Graceful shutdown of the real process: on SIGTERM/SIGINT it stops accepting, lets in-flight
// operations finish within SHUTDOWN_TIMEOUT_MS, closes the upstream pool and exits 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { sleep } from '../support/fixtures';
import { KEY } from '../support/stack';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tunnels = makeTunnels(2, { seed: 3 });

interface Child {
  process: ChildProcess;
  url: string;
  output: () => string;
  exit: Promise<number | null>;
}

/** Starts `src/main.ts` on a free loopback port against `upstream`; resolves once it listens. */
async function startGateway(upstream: string, env: Record<string, string>): Promise<Child> {
  const child = spawn(`${root}node_modules/.bin/tsx`, ['src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NGROK_API_URL: upstream,
      HOST: '127.0.0.1',
      PORT: '0',
      NODE_ENV: 'test',
      LOG_FORMAT: 'json',
      UPSTREAM_RATE_LIMIT_PER_MIN: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/graphql)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exit.then((code) => reject(new Error(`gateway exited (${code}) before listening:\n${output}`)));
  });
  return { process: child, url, output: () => output, exit };
}

const list = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ query: '{ tunnels(first: 1) { nodes { id } } }' }),
  });

/** Waits until the stand-in has received `n` calls: the operation is in flight upstream. */
async function untilCalls(sandbox: Sandbox, n: number) {
  for (let i = 0; i < 200 && sandbox.calls() < n; i += 1) await sleep(20);
  expect(sandbox.calls()).toBe(n);
}

describe('graceful shutdown', () => {
  let sandbox: Sandbox;
  let child: Child | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: { tunnels } } });
  });
  afterEach(async () => {
    if (child && child.process.exitCode === null) child.process.kill('SIGKILL');
    child = undefined;
    await sandbox.close();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: the in-flight operation completes, new connections are refused, exit code 0`, async () => {
      child = await startGateway(sandbox.url, { SHUTDOWN_TIMEOUT_MS: '10000' });
      sandbox.setLatency('listTunnels', 700);
      const slow = list(child.url);
      await untilCalls(sandbox, 1);
      child.process.kill(signal);
      const response = await slow;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } },
        extensions: { upstreamCalls: { predicted: 1, made: 1 } },
      });
      expect(await child.exit).toBe(0);
      expect(child.output()).toContain(`${signal}: shutting down`);
      await expect(list(child.url)).rejects.toThrow();
    });
  }

  it('an operation that outlives SHUTDOWN_TIMEOUT_MS is cut, and the process still exits 0', async () => {
    child = await startGateway(sandbox.url, { SHUTDOWN_TIMEOUT_MS: '300', UPSTREAM_TIMEOUT_MS: '60000' });
    sandbox.inject('listTunnels', { kind: 'hang' });
    const hung = list(child.url).then(
      (r) => r.status,
      () => 'cut',
    );
    await untilCalls(sandbox, 1);
    child.process.kill('SIGTERM');
    expect(await child.exit).toBe(0);
    expect(await hung).toBe('cut');
  });
});
