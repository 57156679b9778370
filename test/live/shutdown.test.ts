// SIGTERM with open subscriptions and live queries: the real process (src/main.ts) completes every
// stream, SSE and graphql-ws, before it exits 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { liveSse, liveWs } from './live-query-support';
import { EVENTS, KEY, sse, until, wsClient, wsSubscribe } from './support';

const LIVE = 'query @live { tunnels(first: 5) { nodes { id } } }';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tunnels = makeTunnels(2, { seed: 51 });

describe('graceful shutdown with open subscriptions', () => {
  let sandbox: Sandbox;
  let child: ChildProcess | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: { tunnels } } });
  });
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
    await sandbox.close();
  });

  it('SIGTERM: SSE and graphql-ws streams and live queries complete, then the process exits 0', async () => {
    child = spawn(`${root}node_modules/.bin/tsx`, ['src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NGROK_API_URL: sandbox.url,
        HOST: '127.0.0.1',
        PORT: '0',
        NODE_ENV: 'test',
        LOG_FORMAT: 'json',
        LIVE_POLL_INTERVAL_MS: '200',
        SHUTDOWN_TIMEOUT_MS: '10000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exit = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/graphql)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      };
      child?.stdout?.on('data', onData);
      child?.stderr?.on('data', onData);
      void exit.then((code) => reject(new Error(`gateway exited (${code}) before listening:\n${output}`)));
    });
    const viaSse = await sse(url, KEY, { includeCurrent: true }, EVENTS('id'));
    const client = wsClient(url.replace(/^http/, 'ws'), KEY);
    const viaWs = wsSubscribe(client, { includeCurrent: true }, EVENTS('id'));
    const liveViaSse = await liveSse(url, KEY, LIVE);
    const liveViaWs = liveWs(client, LIVE);
    await viaSse.received(2);
    await viaWs.received(2);
    await liveViaSse.received(1);
    await liveViaWs.received(1);
    expect([viaSse.ended, viaWs.ended, liveViaSse.ended, liveViaWs.ended]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);

    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    await until(() => viaSse.ended !== undefined && viaWs.ended !== undefined, 'both streams to end');
    expect(viaSse.ended).toBe('complete');
    expect(viaWs.ended).toBe('complete');
    await until(
      () => liveViaSse.ended !== undefined && liveViaWs.ended !== undefined,
      'both live queries to end',
    );
    expect([liveViaSse.ended, liveViaWs.ended]).toEqual(['complete', 'complete']);
    expect(output).toContain('SIGTERM: shutting down');
    await client.dispose();
  });
});
