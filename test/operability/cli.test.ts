// The command line as an operator meets it: --help lists every option by section within 100
// columns, --version, unknown flags are refused with one line, a .env file and a YAML config file are
// read, and flags beat the environment, which beats .env, which beats the config file.
// The entry point is bundled once as `npm run build` does it (test/operability/process.ts), and each
// case runs it with node.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagOf, HELP_WIDTH, OPTIONS } from '../../src/config';
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

/** A working directory holding the given files (.env, gateway.config.yaml, ...). */
function withFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-cli-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const withDotEnv = (content: string): string => withFiles({ '.env': content });

/** What a run stopped by one configuration error shows. */
const refused = (line: string) => ({ code: 1, stdout: '', stderr: `Configuration error: ${line}\n` });

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
  it('--help lists every option under its section with flag, variable and file key, within 100 columns', async () => {
    const { code, stdout } = await finished(['--help']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.length > HELP_WIDTH)).toEqual([]);
    const headings = lines.filter((l) => /^[a-z]+: /.test(l)).map((l) => l.split(':')[0]);
    expect(headings).toEqual([...new Set(OPTIONS.map((o) => o.section))]);
    // Each option sits under its own section's heading, its file key first on the line after.
    let section = '';
    const seen: string[] = [];
    for (const [i, line] of lines.entries()) {
      section = /^([a-z]+): /.exec(line)?.[1] ?? section;
      const option = OPTIONS.find((o) => line === `  ${flagOf(o.env)} <value>   ${o.env}`);
      if (!option) continue;
      expect(section, option.env).toBe(option.section);
      expect(lines[i + 1], option.env).toMatch(new RegExp(`^ {6}${option.key}: `));
      seen.push(option.env);
    }
    expect(seen).toEqual(OPTIONS.map((o) => o.env));
    expect(stdout).toMatch(/^ {2}--config <file> +read settings from this YAML file$/m);
    expect(stdout).toMatch(/^ {2}--help +this text$/m);
    expect(stdout).toMatch(/^ {2}--version +the gateway's version$/m);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      'Precedence: flags, then the environment, then a .env file in the working directory, then the config file',
    );
  });

  it('--version prints the name and version of package.json', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, string>;
    expect(await finished(['--version'])).toEqual({
      code: 0,
      stdout: `${pkg.name} ${pkg.version}\n`,
      stderr: '',
    });
  });

  it('refuses an unknown flag with one line and exit code 1', async () => {
    const { code, stdout, stderr } = await finished(['--prot', '4000']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('Configuration error: unknown argument "--prot" (see --help)\n');
    expect(await finished(['--config'])).toEqual(refused('--config: needs a value'));
  });

  it('reads .env; the real environment wins over it, and flags over both', async () => {
    const cwd = withDotEnv('# the gateway reads this\nUPSTREAM_TIMEOUT_MS=from-dotenv\n');
    const [dotenv, env, flag] = await Promise.all([
      finished([], { cwd }),
      finished([], { cwd, env: { UPSTREAM_TIMEOUT_MS: 'from-env' } }),
      finished(['--upstream-timeout-ms=from-flag'], { cwd, env: { UPSTREAM_TIMEOUT_MS: 'from-env' } }),
    ]);
    const expected = (name: string, value: string) =>
      refused(`${name}: expected a whole number from 1 to 600000, got "${value}"`);
    expect(dotenv).toEqual(expected('UPSTREAM_TIMEOUT_MS', 'from-dotenv'));
    expect(env).toEqual(expected('UPSTREAM_TIMEOUT_MS', 'from-env'));
    expect(flag).toEqual(expected('--upstream-timeout-ms', 'from-flag'));
  });

  it('reads gateway.config.yaml when present; .env, the environment and flags each win over it', {
    timeout: 60_000,
  }, async () => {
    const file = 'upstream:\n  timeoutMs: from-file\n';
    const cwd = withFiles({ 'gateway.config.yaml': file });
    const below = withFiles({ 'gateway.config.yaml': file, '.env': 'UPSTREAM_TIMEOUT_MS=from-dotenv\n' });
    const [fromFile, dotenv, env, flag] = await Promise.all([
      finished([], { cwd }),
      finished([], { cwd: below }),
      finished([], { cwd, env: { UPSTREAM_TIMEOUT_MS: 'from-env' } }),
      finished(['--upstream-timeout-ms', 'from-flag'], { cwd, env: { UPSTREAM_TIMEOUT_MS: 'from-env' } }),
    ]);
    const expected = (name: string, value: string) =>
      refused(`${name}: expected a whole number from 1 to 600000, got "${value}"`);
    expect(fromFile).toEqual(expected('gateway.config.yaml: upstream.timeoutMs', 'from-file'));
    expect(dotenv).toEqual(expected('UPSTREAM_TIMEOUT_MS', 'from-dotenv'));
    expect(env).toEqual(expected('UPSTREAM_TIMEOUT_MS', 'from-env'));
    expect(flag).toEqual(expected('--upstream-timeout-ms', 'from-flag'));
  });

  it('--config FILE is read instead of gateway.config.yaml; its values win over the defaults', {
    timeout: 60_000,
  }, async () => {
    const cwd = withFiles({
      'gateway.config.yaml': 'server:\n  port: eighty\n',
      'other.yaml': '# one setting, applied\npersisted:\n  only: true\n',
    });
    expect(await finished(['--config', 'other.yaml'], { cwd })).toEqual(
      refused('PERSISTED_OPERATIONS_ONLY: needs PERSISTED_OPERATIONS_FILE (the allowed operations)'),
    );
    expect(await finished([], { cwd })).toEqual(
      refused('gateway.config.yaml: server.port: expected a whole number from 0 to 65535, got "eighty"'),
    );
  });

  it('refuses an unknown key, a missing file and malformed YAML, naming the file', {
    timeout: 60_000,
  }, async () => {
    const cwd = withFiles({
      'key.yaml': 'server:\n  prot: 4000\n',
      'broken.yaml': 'server:\n  port: [4000\n',
    });
    const [key, missing, broken] = await Promise.all(
      ['key.yaml', 'missing.yaml', 'broken.yaml'].map((file) => finished([`--config=${file}`], { cwd })),
    );
    expect(key).toEqual(refused('key.yaml: unknown key "server.prot" (see --help)'));
    expect(missing).toEqual(refused('missing.yaml: cannot read the config file (no such file)'));
    expect(broken).toMatchObject({ code: 1, stdout: '' });
    expect(broken?.stderr).toMatch(/^Configuration error: broken\.yaml: not valid YAML: .+\n$/);
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
