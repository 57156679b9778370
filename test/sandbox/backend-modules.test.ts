import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, newId, type Sandbox, startSandbox } from '../../src/sandbox';
import { call, expectApiError, expectRawError, headersFor, OP_ID, raw } from './helpers';

const KEY = 'modules-key';
const edgeA = newId('edghts');
const edgeB = newId('edghts');
const withModule = newId('edghtsrt');
const withoutModule = newId('edghtsrt');
const onEdgeB = newId('edghtsrt');
const backends = {
  tunnel_group: newId('bkdtg'),
  failover: newId('bkdfo'),
  weighted: newId('bkdwd'),
  http_response: newId('bkdhr'),
  static: newId('bkdsc'),
};
const fixture: AccountSeed = {
  edges: [
    {
      id: edgeA,
      routes: [
        { id: withModule, backend: { backendId: backends.tunnel_group, enabled: true } },
        { id: withoutModule },
      ],
    },
    { id: edgeB, routes: [{ id: onEdgeB }] },
  ],
  backends: Object.values(backends),
};

const sandbox: Sandbox = await startSandbox({
  edgesWritable: true,
  accounts: { [KEY]: fixture },
  rateLimit: false,
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.seed(KEY, fixture));

const path = (edge: string, route: string) => `/edges/https/${edge}/routes/${route}/backend`;
const url = (edge: string, route: string) => `${sandbox.url}${path(edge, route)}`;
const put = (edge: string, route: string, body: unknown) =>
  call(url(edge, route), { key: KEY, method: 'PUT', body });
const moduleOf = (edge: string, route: string) =>
  sandbox
    .account(KEY)
    .edges?.find((item) => item.id === edge)
    ?.routes.find((item) => item.id === route)?.backend;

describe('PUT …/backend', () => {
  it('attaches a backend, enabled by default, and answers the module', async () => {
    const answer = await put(edgeA, withoutModule, { backend_id: backends.failover });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('ngrok-operation-id')).toMatch(OP_ID);
    expect(answer.text).toBe(
      JSON.stringify({
        enabled: true,
        backend: { id: backends.failover, uri: `${sandbox.url}/backends/failover/${backends.failover}` },
      }),
    );
    expect(moduleOf(edgeA, withoutModule)).toEqual({ backendId: backends.failover, enabled: true });
  });

  it('replaces a module and honours enabled: false', async () => {
    const answer = await put(edgeA, withModule, { backend_id: backends.weighted, enabled: false });
    expect(answer.json).toEqual({
      enabled: false,
      backend: { id: backends.weighted, uri: `${sandbox.url}/backends/weighted/${backends.weighted}` },
    });
    expect(moduleOf(edgeA, withModule)).toEqual({ backendId: backends.weighted, enabled: false });
  });

  it.each(Object.entries(backends))('accepts a %s backend with its uri', async (kind, id) => {
    const answer = await put(edgeB, onEdgeB, { backend_id: id, enabled: true });
    expect(answer.json).toEqual({
      enabled: true,
      backend: { id, uri: `${sandbox.url}/backends/${kind}/${id}` },
    });
  });

  it('answers 404 for an unknown edge or route, or a route of another edge', async () => {
    for (const [edge, route] of [
      [newId('edghts'), withModule],
      [edgeA, newId('edghtsrt')],
      [edgeA, onEdgeB],
      ['junk', 'junk'],
    ] as const) {
      expectApiError(await put(edge, route, { backend_id: backends.static }), 404, undefined);
    }
    expect(moduleOf(edgeB, onEdgeB)).toBeUndefined();
  });

  it('rejects an unknown body field with ERR_NGROK_214', async () => {
    expectApiError(
      await put(edgeA, withModule, { backend_id: backends.static, enable: true }),
      400,
      'ERR_NGROK_214',
    );
    expectApiError(await put(edgeA, withModule, { backend: { id: backends.static } }), 400, 'ERR_NGROK_214');
    expect(moduleOf(edgeA, withModule)?.backendId).toBe(backends.tunnel_group);
  });

  it('rejects a missing backend_id with ERR_NGROK_1405', async () => {
    for (const body of [{}, { enabled: true }, { backend_id: null }, { backend_id: '' }]) {
      expectApiError(await put(edgeA, withModule, body), 400, 'ERR_NGROK_1405');
    }
  });

  it('rejects a non-boolean enabled or non-string backend_id with ERR_NGROK_215', async () => {
    for (const enabled of ['true', 1, null, {}]) {
      expectApiError(
        await put(edgeA, withModule, { backend_id: backends.static, enabled }),
        400,
        'ERR_NGROK_215',
      );
    }
    expectApiError(await put(edgeA, withModule, { backend_id: 42 }), 400, 'ERR_NGROK_215');
  });

  it('rejects a malformed backend id with ERR_NGROK_227', async () => {
    for (const id of ['bkdtg_', 'bkdtg_short', 'nope', `${backends.static}x`, 'bkdtg_../../x']) {
      expectApiError(await put(edgeA, withModule, { backend_id: id }), 400, 'ERR_NGROK_227');
    }
  });

  it('rejects an id of another kind with ERR_NGROK_243', async () => {
    for (const id of [newId('tn'), newId('edghts'), newId('bkdxx')]) {
      expectApiError(await put(edgeA, withModule, { backend_id: id }), 400, 'ERR_NGROK_243');
    }
  });

  it('rejects a well-formed backend that does not exist with ERR_NGROK_242', async () => {
    expectApiError(await put(edgeA, withModule, { backend_id: newId('bkdtg') }), 400, 'ERR_NGROK_242');
    expect(moduleOf(edgeA, withModule)?.backendId).toBe(backends.tunnel_group);
  });

  it('rejects bad JSON and non-object JSON with ERR_NGROK_213', async () => {
    for (const body of ['{"backend_id":', '', '[]', 'null', '"bkdtg_x"']) {
      const answer = await raw(sandbox.url, path(edgeA, withModule), {
        method: 'PUT',
        headers: { ...headersFor(KEY), 'content-type': 'application/json' },
        body,
      });
      expectRawError(answer, 400, 'ERR_NGROK_213');
    }
  });

  it('needs Content-Type application/json: missing → ERR_NGROK_216, other → ERR_NGROK_210', async () => {
    const body = JSON.stringify({ backend_id: backends.static });
    const missing = await raw(sandbox.url, path(edgeA, withModule), {
      method: 'PUT',
      headers: headersFor(KEY),
      body,
    });
    expectRawError(missing, 400, 'ERR_NGROK_216');
    const plain = await raw(sandbox.url, path(edgeA, withModule), {
      method: 'PUT',
      headers: { ...headersFor(KEY), 'content-type': 'text/plain' },
      body,
    });
    expectRawError(plain, 400, 'ERR_NGROK_210');
    const withCharset = await raw(sandbox.url, path(edgeA, withModule), {
      method: 'PUT',
      headers: { ...headersFor(KEY), 'content-type': 'application/json; charset=utf-8' },
      body,
    });
    expect(withCharset.status).toBe(200);
  });

  it('checks the body before looking the route up', async () => {
    expectApiError(await put(newId('edghts'), withModule, { nope: 1 }), 400, 'ERR_NGROK_214');
  });
});

describe('GET …/backend', () => {
  it('answers the module of a route', async () => {
    const answer = await call(url(edgeA, withModule), { key: KEY });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      enabled: true,
      backend: {
        id: backends.tunnel_group,
        uri: `${sandbox.url}/backends/tunnel_group/${backends.tunnel_group}`,
      },
    });
  });

  it('answers 404 for a route without a module (assumption) and for unknown routes', async () => {
    expectApiError(await call(url(edgeA, withoutModule), { key: KEY }), 404, undefined);
    expectApiError(await call(url(edgeB, withModule), { key: KEY }), 404, undefined);
  });

  it('rejects a body with ERR_NGROK_211 and a query with ERR_NGROK_231', async () => {
    const answer = await raw(sandbox.url, path(edgeA, withModule), {
      headers: { ...headersFor(KEY), 'content-type': 'application/json' },
      body: '{}',
    });
    expectRawError(answer, 400, 'ERR_NGROK_211');
    expectApiError(await call(`${url(edgeA, withModule)}?enabled=true`, { key: KEY }), 400, 'ERR_NGROK_231');
  });

  it('accepts an explicit empty body', async () => {
    const answer = await raw(sandbox.url, path(edgeA, withModule), { headers: headersFor(KEY), body: '' });
    expect(answer.status).toBe(200);
  });
});

describe('DELETE …/backend', () => {
  it('answers 204 with an empty body and an operation id, and removes the module', async () => {
    const answer = await raw(sandbox.url, path(edgeA, withModule), {
      method: 'DELETE',
      headers: headersFor(KEY),
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['content-type']).toBeUndefined();
    expect(answer.headers['ngrok-operation-id']).toMatch(OP_ID);
    expect(moduleOf(edgeA, withModule)).toBeUndefined();
    expectApiError(await call(url(edgeA, withModule), { key: KEY }), 404, undefined);
  });

  it('is idempotent on a route without a module', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await call(url(edgeA, withoutModule), { key: KEY, method: 'DELETE' });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
    }
  });

  it('answers 404 for an unknown edge or route', async () => {
    expectApiError(
      await call(url(newId('edghts'), withModule), { key: KEY, method: 'DELETE' }),
      404,
      undefined,
    );
    expectApiError(await call(url(edgeA, newId('edghtsrt')), { key: KEY, method: 'DELETE' }), 404, undefined);
  });

  it('rejects a body, chunked or not, with ERR_NGROK_211', async () => {
    const sized = await raw(sandbox.url, path(edgeA, withModule), {
      method: 'DELETE',
      headers: headersFor(KEY),
      body: '{"backend_id":"x"}',
    });
    expectRawError(sized, 400, 'ERR_NGROK_211');
    const chunked = await raw(sandbox.url, path(edgeA, withModule), {
      method: 'DELETE',
      headers: { ...headersFor(KEY), 'transfer-encoding': 'chunked' },
      body: 'x',
    });
    expectRawError(chunked, 400, 'ERR_NGROK_211');
    expect(moduleOf(edgeA, withModule)).toBeDefined();
  });
});

describe('unknown paths and methods', () => {
  it('answers a wrong method on a known path with 404, not 405', async () => {
    for (const [method, target] of [
      ['POST', url(edgeA, withModule)],
      ['PATCH', url(edgeA, withModule)],
      ['POST', `${sandbox.url}/tunnels`],
      ['DELETE', `${sandbox.url}/tunnels`],
      ['PUT', `${sandbox.url}/tunnels/${newId('tn')}`],
      ['PUT', `${sandbox.url}/endpoints/${newId('ep')}`],
      ['DELETE', `${sandbox.url}/endpoints`],
    ] as const) {
      expectApiError(await call(target, { key: KEY, method }), 404, undefined);
    }
  });

  it('answers an unknown path with 404', async () => {
    for (const target of [
      '/',
      '/tunnels/',
      '/edges/http',
      `/edges/https/${edgeA}/routes`,
      `/edges/https/${edgeA}/routes/${withModule}`,
      '/backends',
      `/backends/tunnels/${newId('bkdtg')}`,
      '/endpoint',
      '/endpoints/',
      `/endpoints/${newId('ep')}/x`,
      '//x/tunnels',
    ]) {
      expectApiError(await call(`${sandbox.url}${target}`, { key: KEY }), 404, undefined);
    }
  });
});
