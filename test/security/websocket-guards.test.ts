// A browser lets any page open a WebSocket to any address, so a gateway that lends its key must judge
// the graphql-ws upgrade as it judges an HTTP request: a page on another origin, or one that re-points
// its own name at 127.0.0.1 (DNS rebinding), gets the HTTP refusal and no socket, no data, no upstream
// call; the origins and hosts the rules allow, tokens and the embedded stand-in still get a socket.
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { start } from '../../src/main';
import { makeTunnels } from '../../src/sandbox';
import { oneRouteAccount } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';
import { run, type UpgradeAnswer, upgrade, type WsClient, wsClient } from '../support/websocket';

const tunnels = makeTunnels(2, { seed: 23 });
const { edge, route, backend, seed } = oneRouteAccount(tunnels);
const LIST = '{ tunnels(first: 1) { nodes { id } } }';
const LISTED = { data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } } };
const DELETE = `mutation { deleteHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}" }) { __typename } }`;
const EVENTS = 'subscription { tunnelEvents(includeCurrent: true) { kind tunnelId } }';
const KEY_HOLDER = { NODE_ENV: 'development', HOST: '127.0.0.1', NGROK_API_KEY: KEY };

/** A refused upgrade: the HTTP status and the JSON body an HTTP request gets, and no socket. */
function refusedWith(answer: UpgradeAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['sec-websocket-accept']).toBeUndefined();
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(answer.body) as { data?: unknown; errors: { extensions: { code: string } }[] };
  expect(body.data).toBeUndefined();
  expect(body.errors.map((e) => e.extensions.code)).toEqual([code]);
}

/** The real client gets no socket: its query and subscription end in errors, without a result. */
async function getsNothing(client: WsClient) {
  for (const query of [LIST, DELETE, EVENTS]) {
    const outcome = await run(client, query);
    expect(outcome.results).toEqual([]);
    expect(outcome.error).toBeDefined();
  }
  expect(client.acks).toBe(0);
}

describe('graphql-ws on a development gateway holding a key, on loopback, without tokens', () => {
  let h: Stack;
  let port: string;
  const clients: WsClient[] = [];
  beforeAll(async () => {
    h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      websocket: true,
      env: KEY_HOLDER,
    });
    port = new URL(h.url).port;
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.resetCalls());
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
  });
  const client = (headers: Record<string, string>) => {
    const c = wsClient(h.wsUrl, { headers });
    clients.push(c);
    return c;
  };

  it('an upgrade from another origin is refused (403) as over HTTP, and the client gets no data', async () => {
    for (const origin of ['http://evil.example', 'http://localhost:3000', 'null', `http://[::1]:${port}`]) {
      const answer = await upgrade(h.wsUrl, { origin });
      refusedWith(answer, 403, 'ORIGIN_NOT_ALLOWED');
      expect(answer.headers.vary).toBe('Origin');
      await getsNothing(client({ origin }));
    }
    expect(h.sandbox.calls()).toBe(0);
    expect(h.gateway.live.count()).toBe(0);
    expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backend);
  });

  it('an upgrade a browser marks as sent from another site, without Origin, is refused (403)', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const headers = { 'sec-fetch-site': site, 'sec-fetch-mode': 'websocket' };
      refusedWith(await upgrade(h.wsUrl, headers), 403, 'ORIGIN_NOT_ALLOWED');
      await getsNothing(client(headers));
    }
    expect(h.sandbox.calls()).toBe(0);
    expect(h.gateway.live.count()).toBe(0);
  });

  it('a foreign Host (DNS rebinding) is refused (421), with or without an Origin of that name', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
      refusedWith(await upgrade(h.wsUrl, { host }), 421, 'HOST_NOT_ALLOWED');
      // The rebound page's own origin is "same origin" for that Host: the Host check still refuses it.
      refusedWith(await upgrade(h.wsUrl, { host, origin: `http://${host}` }), 421, 'HOST_NOT_ALLOWED');
      await getsNothing(client({ host, origin: `http://${host}` }));
    }
    expect(h.sandbox.calls()).toBe(0);
  });

  it("the gateway's own pages and clients without Origin are served, one upstream call a query", async () => {
    const allowed: Record<string, string>[] = [
      { origin: `http://127.0.0.1:${port}` },
      { origin: `http://localhost:${port}`, host: `localhost:${port}` },
      { host: `[::1]:${port}` },
      {},
    ];
    for (const headers of allowed) {
      expect((await upgrade(h.wsUrl, headers)).status).toBe(101);
      const c = client(headers);
      expect(await run(c, LIST)).toEqual({ results: [LISTED] });
      expect(c.acks).toBe(1);
    }
    expect(h.sandbox.calls('listTunnels')).toBe(allowed.length);
    expect(h.sandbox.calls()).toBe(allowed.length);
  });

  it("each operation runs as a POST carrying the upgrade's Host, Origin and client address", async () => {
    const spy = vi.spyOn(h.gateway.yoga, 'getEnveloped');
    let contexts: unknown[] = [];
    try {
      const origin = `http://localhost:${port}`;
      const c = client({ origin, host: `localhost:${port}`, 'x-request-id': 'ws-caller-1' });
      expect(await run(c, LIST)).toEqual({ results: [LISTED] });
      contexts = spy.mock.calls.map(([context]) => context);
    } finally {
      spy.mockRestore();
    }
    expect(contexts).toHaveLength(1);
    const { request, req } = contexts[0] as { request: Request; req: IncomingMessage };
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`http://localhost:${port}/graphql`);
    expect(request.headers.get('host')).toBe(`localhost:${port}`);
    expect(request.headers.get('origin')).toBe(`http://localhost:${port}`);
    expect(request.headers.get('x-request-id')).toBe('ws-caller-1');
    expect(request.headers.get('sec-websocket-key')).toBeNull();
    expect(req.socket.remoteAddress).toBe('127.0.0.1');
  });
});

describe('what opens a socket where the rules allow', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const track = (c: WsClient) => {
    cleanup.push(() => c.dispose());
    return c;
  };

  it('CORS_ORIGINS lets a listed origin in, ALLOWED_HOSTS a name; others are refused', async () => {
    const h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      websocket: true,
      env: {
        ...KEY_HOLDER,
        NODE_ENV: 'production',
        CORS_ORIGINS: 'https://app.example.com',
        ALLOWED_HOSTS: 'gateway.internal',
      },
    });
    cleanup.push(() => h.close());
    const listed = { origin: 'https://app.example.com', host: 'gateway.internal:8080' };
    expect((await upgrade(h.wsUrl, listed)).status).toBe(101);
    expect(await run(track(wsClient(h.wsUrl, { headers: listed })), LIST)).toEqual({ results: [LISTED] });
    refusedWith(await upgrade(h.wsUrl, { origin: 'https://evil.example' }), 403, 'ORIGIN_NOT_ALLOWED');
    refusedWith(await upgrade(h.wsUrl, { host: 'other.internal' }), 421, 'HOST_NOT_ALLOWED');
    await getsNothing(track(wsClient(h.wsUrl, { headers: { origin: 'https://evil.example' } })));
    expect(h.sandbox.calls()).toBe(1);
  });

  it('GATEWAY_TOKENS: a token on the upgrade or in connection_init opens it; a bad one gets 401 or 4401, no data', async () => {
    const TOKEN = 'ws-writer-token-0123456789';
    const h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      websocket: true,
      env: { NGROK_API_KEY: KEY, GATEWAY_TOKENS: TOKEN },
    });
    cleanup.push(() => h.close());
    for (const authorization of ['Bearer not-a-known-token-0000', 'Basic dXNlcjpwYXNz']) {
      const answer = await upgrade(h.wsUrl, { authorization });
      refusedWith(answer, 401, 'UNAUTHENTICATED');
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="ngrok-graphql-gateway"');
      await getsNothing(track(wsClient(h.wsUrl, { headers: { authorization } })));
    }
    // connection_init with an unknown token: closed (4401, not retried) before it is acknowledged.
    const unknown = track(wsClient(h.wsUrl, { key: 'not-a-known-token-0000' }));
    await getsNothing(unknown);
    expect(unknown.closes).toEqual([4401, 4401, 4401]);
    // No token at all: the socket opens (introspection needs none), operations are refused as over HTTP.
    const none = track(wsClient(h.wsUrl));
    const refused = await run(none, LIST);
    expect(refused.results).toHaveLength(1);
    expect(refused.results[0]?.data).toBeUndefined();
    expect(refused.results[0]?.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    // A valid token held by a page on another origin is still refused: the key is the gateway's.
    refusedWith(
      await upgrade(h.wsUrl, { origin: 'https://evil.example', authorization: `Bearer ${TOKEN}` }),
      403,
      'ORIGIN_NOT_ALLOWED',
    );
    expect(h.sandbox.calls()).toBe(0);
    const byHeader = track(wsClient(h.wsUrl, { headers: { authorization: `Bearer ${TOKEN}` } }));
    const byParams = track(wsClient(h.wsUrl, { key: TOKEN }));
    for (const c of [byHeader, byParams]) expect(await run(c, LIST)).toEqual({ results: [LISTED] });
    expect(h.sandbox.calls()).toBe(2);
  });

  it('the embedded stand-in (npm start): any origin in development, a foreign Host refused', async () => {
    const running = await start(
      loadConfig({ PORT: '0', NODE_ENV: 'development', LOG_LEVEL: 'silent' }),
      () => {},
    );
    cleanup.push(() => running.close());
    const wsUrl = running.url.replace(/^http/, 'ws');
    const origin = { origin: 'http://localhost:5173' };
    expect((await upgrade(wsUrl, origin)).status).toBe(101);
    const outcome = await run(track(wsClient(wsUrl, { headers: origin })), LIST);
    expect(outcome.error).toBeUndefined();
    expect(outcome.results[0]?.data?.tunnels).toEqual({ nodes: [expect.objectContaining({})] });
    refusedWith(await upgrade(wsUrl, { host: 'evil.example' }), 421, 'HOST_NOT_ALLOWED');
  });

  it('npm start holding a key says the upgrade is checked, and a foreign page gets no socket', async () => {
    const h = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed } });
    cleanup.push(() => h.close());
    const lines: string[] = [];
    const running = await start(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        NGROK_API_URL: h.sandbox.url,
        NGROK_API_KEY: KEY,
        LOG_LEVEL: 'silent',
      }),
      (l) => lines.push(l),
    );
    cleanup.push(() => running.close());
    expect(lines.find((l) => l.startsWith('Security:'))).toMatch(
      /; Host and Origin checked on every HTTP request and WebSocket upgrade\.$/,
    );
    const wsUrl = running.url.replace(/^http/, 'ws');
    refusedWith(await upgrade(wsUrl, { origin: 'http://evil.example' }), 403, 'ORIGIN_NOT_ALLOWED');
    refusedWith(await upgrade(wsUrl, { host: 'evil.example' }), 421, 'HOST_NOT_ALLOWED');
    await getsNothing(track(wsClient(wsUrl, { headers: { origin: 'http://evil.example' } })));
    expect(h.sandbox.calls()).toBe(0);
    const served = await run(track(wsClient(wsUrl)), LIST);
    expect(served.results.map((r) => r.data)).toEqual([LISTED.data]);
    expect(h.sandbox.calls()).toBe(1);
  });
});
