// The command line as an operator meets it: --help lists every option, unknown flags are refused
// with one line, a .env file is read, and flags beat the environment, which beats .env.
// The entry point is bundled once as `npm run build` does it (test/operability/process.ts), and each
// case runs it with node.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagOf, OPTIONS } from '../../src/config';
import { bundleMain } from './process';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
let main = '';
let removeBundle = () => {};
beforeAll(async () => {
  ({ main, remove: removeBundle } = await bundleMain());
});
afterAll(() => {
  removeBundle();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A working directory holding a .env file. */
function withDotEnv(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-cli-'));
  dirs.push(dir);
  writeFileSync(join(dir, '.env'), content);
  return dir;
}

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

/** Runs the gateway's entry point with only the variables given (no NODE_ENV from the test runner). */
function run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run {
  const child = spawn(process.execPath, [main, ...args], {
    cwd: options.cwd ?? root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function finished(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const r = run(args, options);
  const code = await r.exit;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

describe('the command line', () => {
  it('--help lists every option with its flag and variable, and exits 0', async () => {
    const { code, stdout } = await finished(['--help']);
    expect(code).toBe(0);
    for (const option of OPTIONS) {
      expect(stdout).toMatch(new RegExp(`^  ${flagOf(option.env)} <value> +${option.env} `, 'm'));
    }
    expect(stdout).toMatch(/^ {2}--help +this text$/m);
    expect(stdout).toContain('Precedence: flags, then the environment, then a .env file');
  });

  it('refuses an unknown flag with one line and exit code 1', async () => {
    const { code, stdout, stderr } = await finished(['--prot', '4000']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('Configuration error: unknown argument "--prot" (see --help)\n');
  });

  it('reads .env; the real environment wins over it, and flags over both', async () => {
    const cwd = withDotEnv('# the gateway reads this\nUPSTREAM_TIMEOUT_MS=from-dotenv\n');
    const [dotenv, env, flag] = await Promise.all([
      finished([], { cwd }),
      finished([], { cwd, env: { UPSTREAM_TIMEOUT_MS: 'from-env' } }),
      finished(['--upstream-timeout-ms=from-flag'], { cwd, env: { UPSTREAM_TIMEOUT_MS: 'from-env' } }),
    ]);
    const expected = (name: string, value: string) => ({
      code: 1,
      stdout: '',
      stderr: `Configuration error: ${name}: expected a whole number from 1 to 600000, got "${value}"\n`,
    });
    expect(dotenv).toEqual(expected('UPSTREAM_TIMEOUT_MS', 'from-dotenv'));
    expect(env).toEqual(expected('UPSTREAM_TIMEOUT_MS', 'from-env'));
    expect(flag).toEqual(expected('--upstream-timeout-ms', 'from-flag'));
  });

  it('starts from .env settings, serves /health and /readiness, logs JSON, and stops on SIGTERM', async () => {
    const cwd = withDotEnv('PORT=0\nLOG_FORMAT=json\nNODE_ENV=development\n');
    const gateway = run([], { cwd });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line: ${gateway.stderr()}`)), 15_000);
        gateway.child.stdout?.on('data', () => {
          const found = /listening on (http:\/\/127\.0\.0\.1:\d+)\/graphql/.exec(gateway.stdout());
          if (found?.[1]) {
            clearTimeout(timer);
            resolve(found[1]);
          }
        });
      });
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect((await fetch(`${url}/readiness`)).status).toBe(200);
      const started = gateway
        .stdout()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(started.map((l) => l.msg)).toEqual([
        `GraphQL gateway listening on ${url}/graphql (GraphiQL: open it in a browser)`,
        `Probes and metrics: ${url}/health, /readiness, /metrics`,
        expect.stringMatching(
          /^Upstream: a local stand-in of the ngrok API with demo data at http:\/\/127\.0\.0\.1:\d+/,
        ),
      ]);
    } finally {
      gateway.child.kill('SIGTERM');
    }
    expect(await gateway.exit).toBe(0);
  });
});
