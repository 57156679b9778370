import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { start } from '../../src/main';
import { type Sandbox, startSandbox } from '../../src/sandbox';

const run = promisify(execFile);
const tsx = (args: string[], env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 20_000,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );

describe('start-up', () => {
  it('with no upstream configured it serves the embedded stand-in with demo data, no header needed', async () => {
    const lines: string[] = [];
    const running = await start(
      loadConfig({ PORT: '0', NODE_ENV: 'test' }),
      (l) => lines.push(l),
      silentLogger(),
    );
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
      expect(lines.join('\n')).toMatch(/local stand-in of the ngrok API with demo data/);
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ tunnels(first: 3) { nodes { id } pageInfo { hasNextPage } } }' }),
      });
      const body = (await response.json()) as {
        data: { tunnels: { nodes: { id: string }[]; pageInfo: unknown } };
      };
      expect(body.data.tunnels.nodes).toHaveLength(3);
      expect(body.data.tunnels.pageInfo).toEqual({ hasNextPage: true });
      const page = await fetch(running.url, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/graphiql/i);
    } finally {
      await running.close();
    }
  });

  describe('pass-through mode against any upstream', () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await startSandbox({ rateLimit: false });
    });
    afterAll(() => sandbox.close());

    it('forwards the client key to NGROK_API_URL', async () => {
      const lines: string[] = [];
      const running = await start(
        loadConfig({ PORT: '0', HOST: '127.0.0.1', NGROK_API_URL: `${sandbox.url}/` }),
        (l) => lines.push(l),
        silentLogger(),
      );
      try {
        expect(lines.join('\n')).toMatch(/each client forwards its own API key/);
        const response = await fetch(running.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.keys[0]}` },
          body: JSON.stringify({ query: '{ tunnels(first: 1) { nodes { id } } }' }),
        });
        expect(
          ((await response.json()) as { data: { tunnels: { nodes: unknown[] } } }).data.tunnels.nodes,
        ).toHaveLength(1);
      } finally {
        await running.close();
      }
    });

    it('refuses a server-held key without tokens on a non-loopback address', async () => {
      await expect(
        start(
          loadConfig({ PORT: '0', HOST: '0.0.0.0', NGROK_API_URL: sandbox.url, NGROK_API_KEY: 'k' }),
          () => {},
        ),
      ).rejects.toThrow(/GATEWAY_TOKENS: required when NGROK_API_KEY is set and HOST is not loopback/);
    });

    it('allows a server-held key without tokens on loopback', async () => {
      const running = await start(
        loadConfig({
          PORT: '0',
          HOST: '127.0.0.1',
          NGROK_API_URL: sandbox.url,
          NGROK_API_KEY: sandbox.keys[0] ?? '',
        }),
        () => {},
        silentLogger(),
      );
      await running.close();
    });
  });

  it('as a process: bad configuration stops start-up with one line naming the variable', async () => {
    for (const [env, message] of [
      [{ PORT: 'abc' }, 'Configuration error: PORT: expected a whole number from 0 to 65535, got "abc"'],
      [{ NGROK_API_URL: '::nope' }, 'Configuration error: NGROK_API_URL: not a URL: "::nope"'],
      [{ NGROK_API_VERSION: '1' }, 'Configuration error: NGROK_API_VERSION: expected one of 2, got "1"'],
      [
        { NODE_ENV: 'production' },
        'Configuration error: NGROK_API_URL / NGROK_API_KEY: no upstream configured',
      ],
    ] as const) {
      const result = await tsx([], env);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(message);
    }
  });
});
