// /health (alive, never calls the upstream) and /readiness (the upstream answers), with its cost
// bounded: one upstream call per READINESS_CACHE_MS at most, shared by concurrent probes.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY, type Stack, startStack } from '../support/stack';

const stacks: Stack[] = [];
async function stackWith(env: Record<string, string>, accounts = { [KEY]: {} }): Promise<Stack> {
  const stack = await startStack({ accounts, env });
  stacks.push(stack);
  return stack;
}
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});

const get = async (stack: Stack, path: string) => {
  const response = await fetch(stack.url.replace(/\/graphql$/, path));
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
};

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('/health', () => {
  it('answers 200 without calling the upstream, even when the upstream is down', async () => {
    const stack = await stackWith({ NGROK_API_KEY: KEY });
    stack.sandbox.inject('listTunnels', { kind: 'status', status: 503 });
    expect(await get(stack, '/health')).toEqual({ status: 200, json: undefined });
    expect(stack.sandbox.calls()).toBe(0);
  });
});

describe('/readiness', () => {
  it('with the server-held key: ready when GET /tunnels?limit=1 succeeds; probes within the cache period share it', async () => {
    const stack = await stackWith({ NGROK_API_KEY: KEY });
    const ready = {
      status: 200,
      json: { status: 'ready', upstream: { ready: true, upstream: 'ok', status: 200 } },
    };
    expect(await get(stack, '/readiness')).toEqual(ready);
    expect(await get(stack, '/readiness')).toEqual(ready);
    expect(await Promise.all([get(stack, '/readiness'), get(stack, '/readiness')])).toEqual([ready, ready]);
    expect(stack.sandbox.calls('listTunnels', KEY)).toBe(1);
    expect(stack.sandbox.calls()).toBe(1);
  });

  it('is 503 while the upstream fails, and ready again once it answers', async () => {
    const stack = await stackWith({ NGROK_API_KEY: KEY, READINESS_CACHE_MS: '0' });
    stack.sandbox.inject('listTunnels', { kind: 'status', status: 503 });
    expect(await get(stack, '/readiness')).toEqual({
      status: 503,
      json: { status: 'not ready', upstream: { ready: false, upstream: 'unavailable', status: 503 } },
    });
    expect((await get(stack, '/readiness')).status).toBe(200);
    expect(stack.sandbox.calls('listTunnels')).toBe(2);
  });

  it('concurrent probes share one call even without a cache period', async () => {
    const stack = await stackWith({ NGROK_API_KEY: KEY, READINESS_CACHE_MS: '0' });
    stack.sandbox.setLatency('listTunnels', 50);
    const answers = await Promise.all([1, 2, 3].map(() => get(stack, '/readiness')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
  });

  it('is 503 when the server-held key is refused: every request would fail', async () => {
    const stack = await stackWith({ NGROK_API_KEY: 'revoked-key-0123456789' });
    expect(await get(stack, '/readiness')).toEqual({
      status: 503,
      json: { status: 'not ready', upstream: { ready: false, upstream: 'credential refused', status: 403 } },
    });
  });

  it('in pass-through mode sends no key: any answer below 500 means the upstream is reachable', async () => {
    const stack = await stackWith({});
    const answer = await get(stack, '/readiness');
    expect(answer.status).toBe(200);
    expect(answer.json.upstream.ready).toBe(true);
    expect([401, 403]).toContain(answer.json.upstream.status);
    expect(stack.sandbox.calls('listTunnels')).toBe(1);
    expect(stack.sandbox.calls('listTunnels', KEY)).toBe(0);
  });

  it('is 503 with a reason when the upstream does not answer in time or cannot be reached', async () => {
    const slow = await stackWith({ NGROK_API_KEY: KEY, READINESS_TIMEOUT_MS: '100' });
    slow.sandbox.inject('listTunnels', { kind: 'hang' });
    expect(await get(slow, '/readiness')).toEqual({
      status: 503,
      json: { status: 'not ready', upstream: { ready: false, upstream: 'timeout', status: null } },
    });

    const down = await stackWith({
      NGROK_API_URL: `http://127.0.0.1:${await closedPort()}`,
      NGROK_API_KEY: KEY,
    });
    expect(await get(down, '/readiness')).toEqual({
      status: 503,
      json: { status: 'not ready', upstream: { ready: false, upstream: 'unreachable', status: null } },
    });
  });
});
