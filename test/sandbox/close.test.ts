import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox';

// In its own file so that the process-wide handle count is not disturbed by other suites. A handle
// left by an earlier test may close meanwhile, so the count must not exceed what it was before.
const NETWORK_AND_TIMERS = new Set(['TCPServerWrap', 'TCPSocketWrap', 'Timeout']);
const openHandles = () =>
  process.getActiveResourcesInfo().filter((name) => NETWORK_AND_TIMERS.has(name)).length;

/** Sockets finish closing a few event-loop turns after close(); wait up to 500 ms for the count to settle. */
async function settledHandles(target: number): Promise<number> {
  const deadline = Date.now() + 500;
  while (openHandles() > target && Date.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
  return openHandles();
}

describe('close()', () => {
  it('resolves while requests hang or wait on latency, ends them, and leaves no handle open', async () => {
    const before = openHandles();
    const sandbox = await startSandbox({ accounts: { key: {} } });
    sandbox.inject('listTunnels', { kind: 'hang' });
    sandbox.setLatency('getTunnel', 60_000);
    const headers = { authorization: 'Bearer key', 'ngrok-version': '2' };
    const outcomes = ['/tunnels', '/tunnels/tn_x'].map(
      (path) =>
        new Promise<string>((resolve) => {
          const req = request(`${sandbox.url}${path}`, { headers, agent: false }, (res) =>
            resolve(`answered ${res.statusCode}`),
          );
          req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          req.end();
        }),
    );
    while (sandbox.calls() < 2) await new Promise((resolve) => setTimeout(resolve, 5));

    const started = Date.now();
    await sandbox.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await Promise.all(outcomes)).toEqual(['ECONNRESET', 'ECONNRESET']);
    await sandbox.close(); // idempotent
    expect(await settledHandles(before)).toBeLessThanOrEqual(before);
  });

  it('leaves no handle after a keep-alive fetch either', async () => {
    const before = openHandles();
    const sandbox = await startSandbox({ accounts: { key: {} } });
    const answer = await fetch(`${sandbox.url}/tunnels`, {
      headers: { authorization: 'Bearer key', 'ngrok-version': '2' },
    });
    expect(answer.status).toBe(200);
    await answer.text();
    await sandbox.close();
    expect(await settledHandles(before)).toBeLessThanOrEqual(before);
  });
});
