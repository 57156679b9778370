import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox';
import { call, expectApiError } from './helpers';

const tunnels = makeTunnels(5, { seed: 21 });
const accounts = { one: { tunnels }, two: { tunnels } };
let sandbox: Sandbox | undefined;

async function start(options: SandboxOptions): Promise<Sandbox> {
  sandbox = await startSandbox({ accounts, ...options });
  return sandbox;
}
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rate limit', () => {
  it('answers 429 ERR_NGROK_226 with Retry-After past max, per key, and recovers after the window', async () => {
    const api = await start({ rateLimit: { max: 3, windowMs: 200 } });
    for (let i = 0; i < 3; i++) expect((await call(`${api.url}/tunnels`, { key: 'one' })).status).toBe(200);
    const limited = await call(`${api.url}/tunnels`, { key: 'one' });
    expectApiError(limited, 429, 'ERR_NGROK_226');
    expect(limited.headers.get('retry-after')).toBe('1');
    // Another account has its own budget.
    expect((await call(`${api.url}/tunnels`, { key: 'two' })).status).toBe(200);
    await sleep(250);
    // Rejected requests did not use the window up: the full budget is back.
    for (let i = 0; i < 3; i++) expect((await call(`${api.url}/tunnels`, { key: 'one' })).status).toBe(200);
    expectApiError(await call(`${api.url}/tunnels`, { key: 'one' }), 429, 'ERR_NGROK_226');
  });

  it('counts every admitted request, errors included, and says how long until a slot frees', async () => {
    const api = await start({ rateLimit: { max: 2, windowMs: 60_000 } });
    expect((await call(`${api.url}/tunnels/nope`, { key: 'one' })).status).toBe(404);
    expect((await call(`${api.url}/tunnels?limit=0`, { key: 'one' })).status).toBe(400);
    const limited = await call(`${api.url}/tunnels`, { key: 'one' });
    expectApiError(limited, 429, 'ERR_NGROK_226');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(api.calls('listTunnels', 'one')).toBe(2);
  });

  it('defaults to 120 requests per minute', async () => {
    const api = await start({});
    const answers = await Promise.all(
      Array.from({ length: 121 }, () => call(`${api.url}/tunnels?limit=1`, { key: 'one' })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(120);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(1);
  });

  it('can be turned off', async () => {
    const api = await start({ rateLimit: false });
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => call(`${api.url}/tunnels?limit=1`, { key: 'one' })),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  });
});

describe('simultaneous requests', () => {
  it('caps in-flight requests per key with 429 ERR_NGROK_225 when configured', async () => {
    const api = await start({ rateLimit: false, maxConcurrentPerKey: 2 });
    api.setLatency('listTunnels', 150);
    const burst = Array.from({ length: 5 }, () => call(`${api.url}/tunnels`, { key: 'one' }));
    const other = call(`${api.url}/tunnels`, { key: 'two' });
    const answers = await Promise.all(burst);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    const rejected = answers.filter((answer) => answer.status === 429);
    expect(rejected).toHaveLength(3);
    for (const answer of rejected) expectApiError(answer, 429, 'ERR_NGROK_225');
    expect((await other).status).toBe(200);
    // Slots free up once answers are sent.
    api.setLatency('listTunnels', 0);
    expect((await call(`${api.url}/tunnels`, { key: 'one' })).status).toBe(200);
    expect(api.peakConcurrency('one')).toBe(5);
  });

  it('tracks the peak of in-flight requests per key and overall, reset by resetCalls', async () => {
    const api = await start({ rateLimit: false });
    api.setLatency('all', 100);
    await Promise.all([
      ...Array.from({ length: 8 }, () => call(`${api.url}/tunnels`, { key: 'one' })),
      ...Array.from({ length: 3 }, () => call(`${api.url}/tunnels`, { key: 'two' })),
    ]);
    expect(api.peakConcurrency('one')).toBe(8);
    expect(api.peakConcurrency('two')).toBe(3);
    expect(api.peakConcurrency()).toBe(11);
    api.resetCalls();
    expect(api.peakConcurrency()).toBe(0);
    await call(`${api.url}/tunnels`, { key: 'one' });
    expect(api.peakConcurrency('one')).toBe(1);
    expect(api.peakConcurrency('nobody')).toBe(0);
  });
});
