// The README's live query snippet (graphql-ws with applyLiveQueryJSONPatch), bundled as printed and
// run with node against a gateway on its embedded stand-in (no key, as the snippet says), whose
// stand-in changes its endpoints once per poll: the snippet prints the first result, then the result
// each patch makes of it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { start } from '../../src/main';
import { until } from './support';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe("the README's live query snippet, as printed", () => {
  const snippet = /```ts\n(import \{ applyLiveQueryJSONPatch \}[\s\S]*?)```/.exec(
    readFileSync(join(root, 'README.md'), 'utf8'),
  )?.[1];
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('prints the first result, then each patched one as the stand-in changes', {
    timeout: 90_000,
  }, async () => {
    expect(snippet).toContain('client.iterate({ query })');
    const running = await start(
      loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'silent',
        STANDIN_CHURN: 'true',
        LIVE_POLL_INTERVAL_MS: '300',
      }),
      () => {},
    );
    cleanups.push(() => running.close());
    const host = new URL(running.url).host;
    const cache = join(root, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'readme-live-snippet-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'snippet.mjs');
    await build({
      stdin: {
        contents: (snippet ?? '').replaceAll('127.0.0.1:4000', host),
        resolveDir: root,
        loader: 'ts',
        sourcefile: 'README-live-snippet.ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: file,
      logLevel: 'warning',
    });
    const child: ChildProcess = spawn(process.execPath, [file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill());
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
    });
    // util.inspect of { nodes: [...] }, one block per payload ("{" alone on its line), the second after a churn.
    const printed = () => stdout.split(/^\{$/m).slice(1);
    await until(() => printed().length >= 2 || stderr !== '', 'two results printed', 60_000);
    expect(stderr).toBe('');
    expect(printed()[0]).toMatch(/nodes: \[[\s\S]*id: 'ep_\w+'/);
    expect(printed()[1]).not.toBe(printed()[0]);
  });
});
