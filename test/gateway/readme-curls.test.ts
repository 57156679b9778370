// Every curl of the READMEs answers as printed beside it (status and body, `…` for any text): run
// with the real curl against a gateway started as its block says (`npm start` on the embedded
// stand-in unless `VAR=value npm start` says otherwise; the real API's URL and key become a
// stand-in's), or against the stand-in alone for port 8787. And the README's graphql-ws snippet,
// bundled as printed and run with node: a refused token ends it with a handled error, a good one
// streams events.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { start } from '../../src/main';
import { DEFAULT_API_KEY, type Sandbox, startSandbox } from '../../src/sandbox';
import { until } from '../live/support';
import { bodyMatches, type ReadmeCurl, readmeCurls, runCurl } from '../support/readme-curls';

const root = fileURLToPath(new URL('../../', import.meta.url));
const text = (path: string) => readFileSync(join(root, path), 'utf8');
const GATEWAY = /(?:127\.0\.0\.1|localhost):4000/g;
const STANDIN = /127\.0\.0\.1:8787/g;

/** Servers the curls need, started on first use on ephemeral loopback ports, closed at the end. */
const closers: (() => Promise<void>)[] = [];
const gateways = new Map<string, Promise<string>>();
let realApi: Promise<Sandbox> | undefined;
const standIns = new Map<string, Promise<Sandbox>>();

/** A stand-in in place of https://api.ngrok.com, with the default demo data and key. */
function realApiStandIn(): Promise<Sandbox> {
  realApi ??= startSandbox().then((sandbox) => {
    closers.push(() => sandbox.close());
    return sandbox;
  });
  return realApi;
}

/** host:port of a gateway started as `VARS npm start` does (the embedded stand-in without an upstream). */
function gateway(printed: Readonly<Record<string, string>>): Promise<string> {
  const key = JSON.stringify(printed);
  const known = gateways.get(key);
  if (known) return known;
  const started = (async () => {
    const env: Record<string, string> = { HOST: '127.0.0.1', ...printed, PORT: '0', LOG_LEVEL: 'silent' };
    if (env.NGROK_API_URL === 'https://api.ngrok.com') env.NGROK_API_URL = (await realApiStandIn()).url;
    for (const [name, value] of Object.entries(env)) {
      if (value.includes('/') && existsSync(join(root, value))) env[name] = join(root, value);
    }
    const running = await start(loadConfig(env), () => {});
    closers.push(() => running.close());
    return new URL(running.url).host;
  })();
  gateways.set(key, started);
  return started;
}

/** The stand-in alone, as `npm run sandbox` starts it (one per README, its state kept across curls). */
function standIn(file: string): Promise<Sandbox> {
  const known = standIns.get(file);
  if (known) return known;
  const started = startSandbox().then((sandbox) => {
    closers.push(() => sandbox.close());
    return sandbox;
  });
  standIns.set(file, started);
  return started;
}

/** The curl's script with the servers' real addresses (and the stand-in's key for a real one). */
async function localized(file: string, curl: ReadmeCurl): Promise<{ script: string; printed: string[] }> {
  let script = [...curl.setup, curl.command].join('\n');
  let printed = curl.expected?.body ?? [];
  if (script.search(STANDIN) !== -1) {
    const host = new URL((await standIn(file)).url).host;
    script = script.replaceAll(STANDIN, host);
    printed = printed.map((l) => l.replaceAll(STANDIN, host));
  }
  if (script.search(GATEWAY) !== -1) script = script.replaceAll(GATEWAY, await gateway(curl.env));
  if (curl.env.NGROK_API_URL === 'https://api.ngrok.com')
    script = script.replaceAll('<ngrok API key>', DEFAULT_API_KEY);
  return { script, printed };
}

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

for (const file of ['README.md', 'src/sandbox/README.md']) {
  describe(`the curls of ${file}`, () => {
    const curls = readmeCurls(text(file));

    it('are there, each followed by the answer it gives', () => {
      expect(curls.length).toBeGreaterThan(5);
      expect(curls.filter((c) => c.expected === undefined).map((c) => c.line)).toEqual([]);
    });

    for (const curl of curls) {
      it(`line ${curl.line}: ${curl.command.split('\n')[0]?.slice(0, 90)}`, { timeout: 60_000 }, async () => {
        const expected = curl.expected;
        if (!expected) return;
        const { script, printed } = await localized(file, curl);
        const answer = await runCurl(script, root, { status: expected.status, body: printed });
        const shown = `${script}\n--- answered:\n${answer.output.slice(0, 2000)}`;
        expect(answer.status, shown).toBe(expected.status);
        expect(bodyMatches(answer.body, printed), shown).toBe(true);
      });
    }
  });
}

describe("the README's graphql-ws snippet, as printed", () => {
  const snippet = /```ts\n(import \{ createClient \} from 'graphql-ws';[\s\S]*?)```/.exec(
    text('README.md'),
  )?.[1];
  const bundles: string[] = [];

  /** Bundles the snippet (its imports resolved from node_modules) with the gateway's address in it. */
  async function bundled(source: string): Promise<string> {
    const cache = join(root, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'readme-snippet-'));
    bundles.push(dir);
    const file = join(dir, 'snippet.mjs');
    await build({
      stdin: { contents: source, resolveDir: root, loader: 'ts', sourcefile: 'README-snippet.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: file,
      logLevel: 'warning',
    });
    return file;
  }
  afterAll(() => {
    for (const dir of bundles) rmSync(dir, { recursive: true, force: true });
  });

  const run = (file: string, env: Record<string, string> = {}) => {
    const child: ChildProcess = spawn(process.execPath, [file], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '', code: undefined as number | null | undefined };
    child.stdout?.on('data', (c: Buffer) => {
      out.stdout += String(c);
    });
    child.stderr?.on('data', (c: Buffer) => {
      out.stderr += String(c);
    });
    child.once('close', (code) => {
      out.code = code;
    });
    return { child, out };
  };

  it('streams events as printed on the stand-in, with a key in TOKEN, and ends with a handled error for a bad one', async () => {
    expect(snippet).toContain('process.env.TOKEN');
    const host = await gateway({});
    const file = await bundled((snippet ?? '').replaceAll(GATEWAY, host));

    const refused = run(file, { TOKEN: 'not a token' });
    await until(() => refused.out.code !== undefined, 'the snippet to end', 30_000);
    expect(refused.out).toEqual({ stdout: '', stderr: 'subscription ended: UNAUTHENTICATED\n', code: 0 });

    for (const env of [{}, { TOKEN: DEFAULT_API_KEY }] as Record<string, string>[]) {
      const accepted = run(file, env);
      try {
        await until(
          () => /\{ kind: 'ONLINE', tunnelId: 'tn_\w+' \}/.test(accepted.out.stdout),
          'an event',
          30_000,
        );
        expect(accepted.out.stderr).toBe('');
      } finally {
        accepted.child.kill();
      }
    }
  });
});
