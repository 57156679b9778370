import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type AccountSeed, newId, type Sandbox, startSandbox } from '../../src/sandbox';
import { call, expectApiError, OP_ID, raw } from './helpers';

const KEY = 'faults-key';
const tunnelId = newId('tn');
const edge = newId('edghts');
const route = newId('edghtsrt');
const backend = newId('bkdtg');
const fixture: AccountSeed = {
  tunnels: [
    {
      id: tunnelId,
      public_url: 'https://abc.ngrok.app',
      started_at: '2025-09-04T10:11:22Z',
      proto: 'https',
      region: 'eu',
      tunnel_session: { id: newId('ts'), uri: '' },
      endpoint: { id: `ep_${tunnelId.slice(3)}`, uri: '' },
      forwards_to: 'http://localhost:80',
    },
  ],
  edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backend, enabled: true } }] }],
  backends: [backend],
};

const sandbox: Sandbox = await startSandbox({
  edgesWritable: true,
  accounts: { [KEY]: fixture },
  rateLimit: false,
});
afterAll(() => sandbox.close());
afterEach(() => {
  sandbox.clearFaults();
  sandbox.resetCalls();
  sandbox.seed(KEY, fixture);
});

const tunnelUrl = `${sandbox.url}/tunnels/${tunnelId}`;
const listUrl = `${sandbox.url}/tunnels`;
const backendPath = `/edges/https/${edge}/routes/${route}/backend`;
const backendUrl = `${sandbox.url}${backendPath}`;
const get = (url: string) => call(url, { key: KEY });

describe('status faults', () => {
  it('answer the queued statuses in order, then behave normally', async () => {
    sandbox.inject('getTunnel', { kind: 'status', status: 500 }, { kind: 'status', status: 503 });
    const first = await get(tunnelUrl);
    expectApiError(first, 500, undefined);
    expect((first.json as { msg: string }).msg).toBe('Internal Server Error');
    expectApiError(await get(tunnelUrl), 503, undefined);
    expect((await get(tunnelUrl)).status).toBe(200);
  });

  it('carry an error code, its catalogue message and Retry-After when given', async () => {
    sandbox.inject(
      'getTunnel',
      { kind: 'status', status: 400, errorCode: 'ERR_NGROK_7008' },
      { kind: 'status', status: 503, retryAfter: 2 },
    );
    const deprecated = await get(tunnelUrl);
    expectApiError(deprecated, 400, 'ERR_NGROK_7008');
    expect((deprecated.json as { msg: string }).msg).toMatch(/deprecated/);
    expect(deprecated.headers.get('retry-after')).toBeNull();
    expect((await get(tunnelUrl)).headers.get('retry-after')).toBe('2');
  });

  it("let 'pass' build sequences", async () => {
    sandbox.inject('listTunnels', { kind: 'pass' }, { kind: 'status', status: 502 });
    expect((await get(listUrl)).status).toBe(200);
    expect((await get(listUrl)).status).toBe(502);
    expect((await get(listUrl)).status).toBe(200);
  });

  it('apply before auth and are per route', async () => {
    sandbox.inject('getTunnel', { kind: 'status', status: 500 });
    expect((await get(listUrl)).status).toBe(200);
    expectApiError(await call(tunnelUrl), 500, undefined);
    expectApiError(await call(tunnelUrl), 403, 'ERR_NGROK_200');
  });

  it('have no side effect', async () => {
    sandbox.inject('deleteBackend', { kind: 'status', status: 500 });
    expect((await call(backendUrl, { key: KEY, method: 'DELETE' })).status).toBe(500);
    expect(sandbox.account(KEY).edges?.[0]?.routes[0]?.backend).toBeDefined();
  });

  it('reject what they cannot answer', () => {
    expect(() => sandbox.inject('getTunnel', { kind: 'status', status: 200 })).toThrow(RangeError);
    expect(() => sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: -1 })).toThrow(RangeError);
    expect(() => sandbox.inject('getTunnel', { kind: 'nope' } as unknown as { kind: 'pass' })).toThrow(
      TypeError,
    );
    expect(() => sandbox.inject('nope' as 'getTunnel', { kind: 'pass' })).toThrow(TypeError);
  });
});

describe('rateLimit fault', () => {
  it('answers 429 ERR_NGROK_226, with Retry-After only when given', async () => {
    sandbox.inject('listTunnels', { kind: 'rateLimit', retryAfter: 3 }, { kind: 'rateLimit' });
    const first = await get(listUrl);
    expectApiError(first, 429, 'ERR_NGROK_226');
    expect(first.headers.get('retry-after')).toBe('3');
    const second = await get(listUrl);
    expectApiError(second, 429, 'ERR_NGROK_226');
    expect(second.headers.get('retry-after')).toBeNull();
  });
});

describe('broken bodies', () => {
  it('malformedJson: 200 application/json that does not parse, after the request took effect', async () => {
    sandbox.inject('deleteBackend', { kind: 'malformedJson' });
    sandbox.inject('getTunnel', { kind: 'malformedJson' });
    const tunnel = await get(tunnelUrl);
    expect(tunnel.status).toBe(200);
    expect(tunnel.headers.get('content-type')).toBe('application/json');
    expect(tunnel.headers.get('ngrok-operation-id')).toMatch(OP_ID);
    expect(() => JSON.parse(tunnel.text)).toThrow(SyntaxError);
    const deleted = await call(backendUrl, { key: KEY, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(() => JSON.parse(deleted.text)).toThrow(SyntaxError);
    expect(sandbox.account(KEY).edges?.[0]?.routes[0]?.backend).toBeUndefined();
  });

  it('truncatedJson: the first half of the real body, with a matching Content-Length', async () => {
    const whole = (await get(tunnelUrl)).text;
    sandbox.inject('getTunnel', { kind: 'truncatedJson' });
    const answer = await raw(sandbox.url, `/tunnels/${tunnelId}`, {
      headers: { authorization: `Bearer ${KEY}`, 'ngrok-version': '2' },
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(whole.slice(0, Math.floor(whole.length / 2)));
    expect(answer.headers['content-length']).toBe(String(answer.text.length));
    expect(() => JSON.parse(answer.text)).toThrow(SyntaxError);
  });

  it('html: a 502 HTML page without an operation id', async () => {
    sandbox.inject('replaceBackend', { kind: 'html' });
    const answer = await call(backendUrl, { key: KEY, method: 'PUT', body: { backend_id: backend } });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toBe('text/html');
    expect(answer.text).toMatch(/^<html>/);
    expect(answer.headers.get('ngrok-operation-id')).toBeNull();
  });

  it('wrongContentType: the real JSON body labelled text/plain', async () => {
    sandbox.inject('getBackend', { kind: 'wrongContentType' });
    const answer = await get(backendUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.json).toEqual({
      enabled: true,
      backend: { id: backend, uri: `${sandbox.url}/backends/tunnel_group/${backend}` },
    });
  });
});

describe('missingField', () => {
  it('removes tunnels from a list, id from a tunnel, enabled from a module', async () => {
    sandbox.inject('listTunnels', { kind: 'missingField' });
    sandbox.inject('getTunnel', { kind: 'missingField' });
    sandbox.inject('getBackend', { kind: 'missingField' });
    sandbox.inject('replaceBackend', { kind: 'missingField' });
    const list = (await get(listUrl)).json as Record<string, unknown>;
    expect(Object.keys(list)).toEqual(['uri', 'next_page_uri']);
    const tunnel = (await get(tunnelUrl)).json as Record<string, unknown>;
    expect(tunnel.id).toBeUndefined();
    expect(tunnel.started_at).toBe('2025-09-04T10:11:22Z');
    expect(Object.keys((await get(backendUrl)).json as object)).toEqual(['backend']);
    const replaced = await call(backendUrl, {
      key: KEY,
      method: 'PUT',
      body: { backend_id: backend, enabled: false },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toEqual({
      backend: { id: backend, uri: `${sandbox.url}/backends/tunnel_group/${backend}` },
    });
    expect(sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.enabled).toBe(false);
  });

  it('leaves a 204 as it is and removes msg from an error body', async () => {
    sandbox.inject('deleteBackend', { kind: 'missingField' });
    sandbox.inject('getTunnel', { kind: 'missingField' });
    const deleted = await call(backendUrl, { key: KEY, method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const missing = await get(`${sandbox.url}/tunnels/${newId('tn')}`);
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.json as object).sort()).toEqual(['details', 'status_code']);
  });
});

describe('connection faults', () => {
  it('drop: the client sees a socket error, then the route works again', async () => {
    sandbox.inject('getTunnel', { kind: 'drop' });
    const error = await get(tunnelUrl).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as TypeError).cause)).toMatch(/SocketError|closed|ECONNRESET|hang up/i);
    expect((await get(tunnelUrl)).status).toBe(200);
    expect(sandbox.calls('getTunnel')).toBe(2);
  });

  it('hang: no answer until the client gives up', async () => {
    sandbox.inject('listTunnels', { kind: 'hang' });
    const started = Date.now();
    const error = await fetch(listUrl, {
      headers: { authorization: `Bearer ${KEY}`, 'ngrok-version': '2' },
      signal: AbortSignal.timeout(200),
    }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect((await get(listUrl)).status).toBe(200);
  });
});

describe('call counts', () => {
  it('count per route and key, faulted and rejected requests included', async () => {
    sandbox.inject('getTunnel', { kind: 'status', status: 500 });
    await get(tunnelUrl);
    await get(tunnelUrl);
    await call(tunnelUrl, { key: 'unknown-key' });
    await call(tunnelUrl);
    await get(listUrl);
    await get(backendUrl);
    await call(backendUrl, { key: KEY, method: 'DELETE' });
    await call(backendUrl, { key: KEY, method: 'PUT', body: { nope: 1 } });
    await get(`${sandbox.url}/nowhere`);
    await call(backendUrl, { key: KEY, method: 'POST' });
    expect(sandbox.calls('getTunnel')).toBe(4);
    expect(sandbox.calls('getTunnel', KEY)).toBe(2);
    expect(sandbox.calls('getTunnel', 'unknown-key')).toBe(1);
    expect(sandbox.calls('listTunnels')).toBe(1);
    expect(sandbox.calls('getBackend')).toBe(1);
    expect(sandbox.calls('deleteBackend')).toBe(1);
    expect(sandbox.calls('replaceBackend')).toBe(1);
    expect(sandbox.calls()).toBe(8);
    expect(sandbox.calls(undefined, KEY)).toBe(6);
    sandbox.resetCalls();
    expect(sandbox.calls()).toBe(0);
    expect(sandbox.calls('getTunnel', KEY)).toBe(0);
  });
});

describe('latency', () => {
  async function timed(url: string): Promise<number> {
    const started = performance.now();
    await get(url);
    return performance.now() - started;
  }

  it('delays a route, adds "all" on top, and clears with 0 or clearFaults', async () => {
    // Wide gaps between the expected times keep this stable on a loaded machine.
    sandbox.setLatency('getTunnel', 400);
    expect(await timed(tunnelUrl)).toBeGreaterThanOrEqual(395);
    expect(await timed(listUrl)).toBeLessThan(200);
    sandbox.setLatency('all', 200);
    expect(await timed(tunnelUrl)).toBeGreaterThanOrEqual(595);
    expect(await timed(listUrl)).toBeGreaterThanOrEqual(195);
    sandbox.setLatency('getTunnel', 0);
    expect(await timed(tunnelUrl)).toBeLessThan(400);
    sandbox.clearFaults();
    expect(await timed(listUrl)).toBeLessThan(195);
    expect(() => sandbox.setLatency('all', -1)).toThrow(RangeError);
  });

  it('delays injected faults too', async () => {
    sandbox.setLatency('getTunnel', 100);
    sandbox.inject('getTunnel', { kind: 'status', status: 500 });
    const started = performance.now();
    expect((await get(tunnelUrl)).status).toBe(500);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('clearFaults drops queued faults', async () => {
    sandbox.inject('getTunnel', { kind: 'status', status: 500 }, { kind: 'drop' });
    sandbox.clearFaults();
    expect((await get(tunnelUrl)).status).toBe(200);
  });
});
