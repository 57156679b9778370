// Requests a web page can make: a mutation over GET, simple (CSRF) POSTs, and cross-origin calls;
// each is refused before anything reaches the upstream, unless CORS_ORIGINS or development lets it in.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY, type Stack, startStack } from '../support/stack';
import { account, type Body, JSON_HEADERS, stillServes, tunnels } from './attack-fixtures';

const { edge, route, backend, seed } = account;

describe('browser-borne requests', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.resetCalls());

  const mutation = `mutation { deleteHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}" }) { __typename } }`;

  it('a mutation over GET is refused (HTTP 405)', async () => {
    const { status, text } = await h.raw({
      method: 'GET',
      search: `?query=${encodeURIComponent(mutation)}`,
      headers: { authorization: `Bearer ${KEY}`, 'x-graphql-yoga-csrf': '1', accept: 'application/json' },
    });
    expect(status).toBe(405);
    expect((JSON.parse(text) as Body).errors?.[0]?.message).toBe(
      'Can only perform a mutation operation from a POST request.',
    );
    expect(h.sandbox.calls()).toBe(0);
  });

  const simple: [string, RequestInit & { search?: string }][] = [
    [
      'a form POST (urlencoded)',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `query=${encodeURIComponent(mutation)}`,
      },
    ],
    [
      'a form POST (multipart)',
      {
        method: 'POST',
        body: (() => {
          const f = new FormData();
          f.set('operations', JSON.stringify({ query: mutation }));
          f.set('map', '{}');
          return f;
        })(),
      },
    ],
    [
      'a text/plain POST',
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ query: mutation }),
      },
    ],
  ];
  for (const [name, init] of simple) {
    it(`CSRF: ${name} is refused (HTTP 403)`, async () => {
      const { status, text } = await h.raw({
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${KEY}` },
      });
      expect(status).toBe(403);
      expect((JSON.parse(text) as Body).errors?.[0]).toEqual({
        message: 'Required CSRF header(s) not present',
        extensions: { code: 'CSRF_HEADER_REQUIRED' },
      });
      expect(h.sandbox.calls()).toBe(0);
      expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backend);
      await stillServes(h);
    });
  }

  // GET runs queries only and clients authenticate with a bearer header: no preflight header needed.
  for (const [name, extra] of [
    ['without a preflight header', {}],
    ['with a preflight header', { 'graphql-require-preflight': '1' }],
  ] as const) {
    it(`a GET query ${name} is served`, async () => {
      const { status, text } = await h.raw({
        method: 'GET',
        search: `?query=${encodeURIComponent('{ tunnels(first: 1) { nodes { id } } }')}`,
        headers: { authorization: `Bearer ${KEY}`, accept: 'application/json', ...extra },
      });
      expect(status).toBe(200);
      expect(JSON.parse(text)).toEqual({
        data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } },
        extensions: { upstreamCalls: { predicted: 1, made: 1 } },
      });
    });
  }

  it('CORS: no origin is allowed by default outside development', async () => {
    const preflight = await h.raw({
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const post = await h.raw({
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: 'https://evil.example' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('configured origins', () => {
  it('CORS_ORIGINS lets the listed origins in, and only them', async () => {
    const h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      env: { CORS_ORIGINS: 'https://app.example.com,http://localhost:5173' },
    });
    try {
      const ask = (origin: string) =>
        h.raw({
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization',
          },
        });
      const allowed = await ask('https://app.example.com');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, POST');
      expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
      expect(allowed.headers.get('vary')).toContain('Origin');
      expect((await ask('http://localhost:5173')).headers.get('access-control-allow-origin')).toBe(
        'http://localhost:5173',
      );
      expect((await ask('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await h.close();
    }
  });

  it('development allows any origin by default (GraphiQL and local frontends)', async () => {
    const h = await startStack({
      sandbox: { edgesWritable: true },
      accounts: { [KEY]: seed },
      env: { NODE_ENV: 'development' },
    });
    try {
      const post = await h.raw({
        method: 'POST',
        headers: { ...JSON_HEADERS, origin: 'http://localhost:3000' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(post.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    } finally {
      await h.close();
    }
  });
});
