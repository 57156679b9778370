import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../src/sandbox';

// The CLI as `npm run sandbox` runs it: bundled by esbuild (packages external, into
// node_modules/.cache so its imports resolve), started with node, driven over HTTP.
const root = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let cli: string;

beforeAll(async () => {
  const cache = join(root, 'node_modules/.cache');
  await mkdir(cache, { recursive: true });
  dir = await mkdtemp(join(cache, 'sandbox-cli-'));
  cli = join(dir, 'cli.js');
  await build({
    entryPoints: ['src/sandbox/cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: cli,
    logLevel: 'warning',
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function waitFor(runInfo: Run, pattern: RegExp): Promise<RegExpMatchArray> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const match = runInfo.output().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${pattern} in output: ${runInfo.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('sandbox CLI', () => {
  it('serves demo data, prints its URL, key and working curl lines, and stops cleanly on SIGTERM', async () => {
    const server = run(['--port', '0', '--tunnels', '12', '--latency', '1']);
    try {
      const [, url] = await waitFor(server, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      await waitFor(server, /Stop with Ctrl\+C/);
      expect(server.output()).toContain('API key: sandbox-key');
      const curls = [
        ...server
          .output()
          .matchAll(/curl -s '?(\S+?)'? -H 'Authorization: Bearer (\S+)' -H 'Ngrok-Version: 2'/g),
      ];
      expect(curls).toHaveLength(3);
      for (const [, target, key] of curls) {
        const answer = await fetch(target ?? '', {
          headers: { authorization: `Bearer ${key}`, 'ngrok-version': '2' },
        });
        expect(answer.status).toBe(200);
        await answer.text();
      }
      const list = await fetch(`${url}/tunnels`, {
        headers: { authorization: 'Bearer sandbox-key', 'ngrok-version': '2' },
      });
      const body = (await list.json()) as { tunnels: { id: string }[] };
      expect(body.tunnels.map((tunnel) => tunnel.id)).toEqual(
        demoData({ tunnels: 12 }).tunnels?.map((tunnel) => tunnel.id),
      );
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exit).toBe(0);
    expect(server.output()).toContain('SIGTERM: closing the stand-in');
  });

  it('gives each --key its own account and honours --no-rate-limit and --seed', async () => {
    const server = run([
      '--port',
      '0',
      '--key',
      'first',
      '--key',
      'second',
      '--no-rate-limit',
      '--seed',
      '5',
    ]);
    try {
      const [, url] = await waitFor(server, /listening on (\S+)/);
      expect(server.output()).toContain('API keys: first, second');
      expect(server.output()).toContain('rate limit: off');
      const ids = async (key: string) => {
        const answer = await fetch(`${url}/tunnels?limit=3`, {
          headers: { authorization: `Bearer ${key}`, 'ngrok-version': '2' },
        });
        return ((await answer.json()) as { tunnels: { id: string }[] }).tunnels.map((tunnel) => tunnel.id);
      };
      expect(await ids('first')).toEqual(
        demoData({ seed: 5 })
          .tunnels?.slice(0, 3)
          .map((tunnel) => tunnel.id),
      );
      expect(await ids('second')).toEqual(
        demoData({ seed: 6 })
          .tunnels?.slice(0, 3)
          .map((tunnel) => tunnel.id),
      );
      const unknown = await fetch(`${url}/tunnels`, {
        headers: { authorization: 'Bearer sandbox-key', 'ngrok-version': '2' },
      });
      expect(unknown.status).toBe(403);
      await unknown.text();
    } finally {
      server.child.kill('SIGINT');
    }
    expect(await server.exit).toBe(0);
  });

  it('by default refuses backend module writes with ERR_NGROK_7196 as the real API, reads still answer; --edges-writable accepts them', async () => {
    for (const [args, status, said] of [
      [[], 400, 'edges: read-only, as the real API'],
      [['--edges-writable'], 204, 'edges: writable'],
    ] as const) {
      const server = run(['--port', '0', ...args]);
      try {
        const [, url] = await waitFor(server, /listening on (\S+)/);
        await waitFor(server, /Stop with Ctrl\+C/);
        expect(server.output()).toContain(said);
        const [, target] = server.output().match(/curl -s (\S+\/backend) /) ?? [];
        const headers = { authorization: 'Bearer sandbox-key', 'ngrok-version': '2' };
        const read = await fetch(target ?? `${url}/none`, { headers });
        expect(read.status).toBe(200);
        await read.text();
        const write = await fetch(target ?? `${url}/none`, { method: 'DELETE', headers });
        expect(write.status).toBe(status);
        const body = await write.text();
        if (status === 400)
          expect((JSON.parse(body) as { error_code: string }).error_code).toBe('ERR_NGROK_7196');
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exit).toBe(0);
    }
  });

  it('prints help and exits 0', async () => {
    const help = run(['--help']);
    expect(await help.exit).toBe(0);
    expect(help.output()).toMatch(/^Usage: npm run sandbox -- \[options\]/);
    for (const flag of [
      '--port',
      '--host',
      '--key',
      '--tunnels',
      '--seed',
      '--rate-limit',
      '--no-rate-limit',
      '--latency',
      '--edges-writable',
    ]) {
      expect(help.output()).toContain(flag);
    }
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', 'abc'], /--port must be an integer/],
    [['--port', '70000'], /--port must be an integer/],
    [['--rate-limit', '5', '--no-rate-limit'], /exclude each other/],
    [['extra'], /positional/i],
  ])('rejects %j with exit code 2', async (args, message) => {
    const bad = run(args);
    expect(await bad.exit).toBe(2);
    expect(bad.output()).toMatch(message);
    expect(bad.output()).toContain('Usage:');
  });
});
