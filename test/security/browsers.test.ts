// A gateway that lends its own key (NGROK_API_KEY, no GATEWAY_TOKENS, on loopback, as a developer
// runs it) must not lend it to web pages: a page on another origin is refused before anything
// runs, and so is a page that re-points its own name at 127.0.0.1 (DNS rebinding).
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { start } from '../../src/main';
import { makeTunnels } from '../../src/sandbox';
import { oneRouteAccount } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(2, { seed: 21 });
const { edge, route, backend, seed } = oneRouteAccount(tunnels);
const QUERY = JSON.stringify({ query: '{ tunnels(first: 1) { nodes { id } } }' });
const MUTATION = JSON.stringify({
  query: `mutation { deleteHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}" }) { __typename } }`,
});
const JSON_POST = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
const PREFLIGHT = {
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type',
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request over node:http, which (unlike fetch) sends the Host header it is given. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const refusedWith = (answer: Answer, status: number, code: string) => {
  expect(answer.status).toBe(status);
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  const body = JSON.parse(answer.text) as { data?: unknown; errors: { extensions: { code: string } }[] };
  expect(body.data).toBeUndefined();
  expect(body.errors.map((e) => e.extensions.code)).toEqual([code]);
};

describe('a development gateway holding a key, on loopback, without tokens', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      env: { NODE_ENV: 'development', HOST: '127.0.0.1', NGROK_API_KEY: KEY },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.resetCalls());

  it('a preflight from another origin gets no CORS headers', async () => {
    const answer = await send(h.url, 'OPTIONS', { origin: 'https://evil.example', ...PREFLIGHT });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('a query or a mutation from another origin is refused (403), no upstream call', async () => {
    for (const body of [QUERY, MUTATION]) {
      const answer = await send(h.url, 'POST', { origin: 'https://evil.example', ...JSON_POST }, body);
      refusedWith(answer, 403, 'ORIGIN_NOT_ALLOWED');
    }
    const get = await send(`${h.url}?query=${encodeURIComponent('{ tunnels { nodes { id } } }')}`, 'GET', {
      origin: 'null',
      accept: 'application/json',
    });
    refusedWith(get, 403, 'ORIGIN_NOT_ALLOWED');
    expect(h.sandbox.calls()).toBe(0);
    expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backend);
  });

  it('what a browser marks as sent from another site without Origin (an <img>, a link, SSE) is refused, no call', async () => {
    const get = `${h.url}?query=${encodeURIComponent('{ tunnels(first: 1) { nodes { id } } }')}`;
    const events = `${h.url}?query=${encodeURIComponent('subscription { tunnelEvents(includeCurrent: true) { kind } }')}`;
    const image = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };
    for (const [url, headers] of [
      [get, { ...image, accept: 'image/avif,image/webp,*/*' }],
      [get, { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', accept: 'application/json' }],
      [get, { 'sec-fetch-site': 'Cross-Site', accept: 'application/json' }],
      [events, { 'sec-fetch-site': 'cross-site', accept: 'text/event-stream' }],
    ] as const) {
      const answer = await send(url, 'GET', headers);
      refusedWith(answer, 403, 'ORIGIN_NOT_ALLOWED');
      expect(answer.headers.vary).toBe('Origin, Sec-Fetch-Site');
    }
    refusedWith(
      await send(h.url, 'POST', { 'sec-fetch-site': 'cross-site', ...JSON_POST }, QUERY),
      403,
      'ORIGIN_NOT_ALLOWED',
    );
    expect(h.sandbox.calls()).toBe(0);
    expect(h.gateway.live.count()).toBe(0);
  });

  it('what a browser marks as same-origin or typed by its user is served; a link to GraphiQL opens it, no call', async () => {
    for (const site of ['same-origin', 'none']) {
      const answer = await send(h.url, 'POST', { 'sec-fetch-site': site, ...JSON_POST }, QUERY);
      expect(answer.status).toBe(200);
    }
    expect(h.sandbox.calls()).toBe(2);
    const link = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', accept: 'text/html' };
    const page = await send(h.url, 'GET', link);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/graphiql/i);
    expect(h.sandbox.calls()).toBe(2);
  });

  it("the gateway's own pages (GraphiQL: same origin) and clients without Origin are served", async () => {
    const port = new URL(h.url).port;
    for (const [origin, host] of [
      [`http://127.0.0.1:${port}`, `127.0.0.1:${port}`],
      [`http://localhost:${port}`, `localhost:${port}`],
      [undefined, `[::1]:${port}`],
    ]) {
      const answer = await send(
        h.url,
        'POST',
        { ...JSON_POST, host: host as string, ...(origin ? { origin } : {}) },
        QUERY,
      );
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({
        data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } },
        extensions: { upstreamCalls: { predicted: 1, made: 1 } },
      });
    }
    const page = await send(h.url, 'GET', { accept: 'text/html', host: `localhost:${port}` });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/graphiql/i);
  });

  it('a foreign Host (DNS rebinding) is refused (421) before anything runs, GraphiQL included', async () => {
    const port = new URL(h.url).port;
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.evil.example:${port}`]) {
      const answer = await send(h.url, 'POST', { ...JSON_POST, host }, MUTATION);
      refusedWith(answer, 421, 'HOST_NOT_ALLOWED');
      const page = await send(h.url, 'GET', { accept: 'text/html', host });
      expect(page.status).toBe(421);
      expect(page.text).not.toMatch(/graphiql/i);
    }
    expect(h.sandbox.calls()).toBe(0);
    // Liveness says nothing and runs nothing: probes reach it by any name.
    const health = await send(h.url.replace(/\/graphql$/, '/health'), 'GET', { host: 'attacker.example' });
    expect(health.status).toBe(200);
  });
});

describe('what the listed origins and hosts open', () => {
  it('CORS_ORIGINS lets a listed origin in (preflight and request); ALLOWED_HOSTS adds a name', async () => {
    const h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      env: {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        NGROK_API_KEY: KEY,
        CORS_ORIGINS: 'https://app.example.com',
        ALLOWED_HOSTS: 'gateway.internal',
      },
    });
    try {
      const origin = 'https://app.example.com';
      const preflight = await send(h.url, 'OPTIONS', { origin, ...PREFLIGHT });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      const post = await send(h.url, 'POST', { origin, ...JSON_POST, host: 'gateway.internal:8080' }, QUERY);
      expect(post.status).toBe(200);
      expect(post.headers['access-control-allow-origin']).toBe(origin);
      expect(JSON.parse(post.text)).toEqual({
        data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } },
        extensions: { upstreamCalls: { predicted: 1, made: 1 } },
      });
      // A listed origin's page on another site: its fetch carries both headers, and is served.
      const crossSite = await send(
        h.url,
        'POST',
        { origin, 'sec-fetch-site': 'cross-site', ...JSON_POST },
        QUERY,
      );
      expect(crossSite.status).toBe(200);
      const other = await send(h.url, 'POST', { origin: 'https://evil.example', ...JSON_POST }, QUERY);
      refusedWith(other, 403, 'ORIGIN_NOT_ALLOWED');
      refusedWith(
        await send(h.url, 'POST', { ...JSON_POST, host: 'other.internal' }, QUERY),
        421,
        'HOST_NOT_ALLOWED',
      );
      expect(h.sandbox.calls()).toBe(2);
    } finally {
      await h.close();
    }
  });

  it('pass-through mode keeps its rule: any origin in development, and any Host off loopback', async () => {
    const h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      env: { NODE_ENV: 'development' },
    });
    try {
      const origin = 'http://localhost:3000';
      const post = await send(
        h.url,
        'POST',
        { origin, ...JSON_POST, host: 'gateway.example', authorization: `Bearer ${KEY}` },
        QUERY,
      );
      expect(post.status).toBe(200);
      expect(post.headers['access-control-allow-origin']).toBe(origin);
    } finally {
      await h.close();
    }
  });
});

describe('npm start', () => {
  it('on the embedded stand-in: any origin in development, GraphiQL served, foreign Host refused', async () => {
    const lines: string[] = [];
    const running = await start(
      loadConfig({ PORT: '0', NODE_ENV: 'development', LOG_LEVEL: 'silent' }),
      (l) => lines.push(l),
    );
    try {
      expect(lines.join('\n')).not.toMatch(/^Security:/m);
      const origin = 'http://localhost:5173';
      const post = await send(running.url, 'POST', { origin, ...JSON_POST }, QUERY);
      expect(post.status).toBe(200);
      expect(post.headers['access-control-allow-origin']).toBe(origin);
      expect(
        (JSON.parse(post.text) as { data: { tunnels: { nodes: unknown[] } } }).data.tunnels.nodes,
      ).toHaveLength(1);
      const page = await send(running.url, 'GET', { accept: 'text/html' });
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/graphiql/i);
      refusedWith(
        await send(running.url, 'POST', { ...JSON_POST, host: 'evil.example' }, QUERY),
        421,
        'HOST_NOT_ALLOWED',
      );
    } finally {
      await running.close();
    }
  });

  it('holding a key without tokens, says in one line what protects it', async () => {
    const h = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed } });
    const lines: string[] = [];
    const running = await start(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', NGROK_API_URL: h.sandbox.url, NGROK_API_KEY: KEY }),
      (l) => lines.push(l),
    );
    try {
      expect(lines.filter((l) => l.startsWith('Security:'))).toEqual([
        'Security: NGROK_API_KEY is lent without GATEWAY_TOKENS, protected by: this machine only (HOST=127.0.0.1); Host names localhost, 127.0.0.1, [::1]; browser origins: its own pages, others none (CORS_ORIGINS unset); Host and Origin checked on every HTTP request and WebSocket upgrade.',
      ]);
      expect(lines.join('\n')).not.toContain(KEY);
    } finally {
      await running.close();
      await h.close();
    }
  });
});
