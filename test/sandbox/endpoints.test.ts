import { describe, expect, it } from 'vitest';
import { makeTunnels, newId, startSandbox, type UpstreamEndpoint } from '../../src/sandbox';
import { cloudsAmong, expectMsg, isAgent, suffix, WRITES, writableStandIn } from './endpoint-fixtures';
import {
  call,
  type EndpointListBody,
  expectApiError,
  expectRawError,
  headersFor,
  nullPaths,
  raw,
  walkEndpoints,
} from './helpers';

// GET /endpoints and GET /endpoints/{id}: paging like /tunnels, agent endpoints derived from the
// agent tunnels, and what every route gets (auth, version, call counts, faults, rate limit).

const KEY = 'endpoints-key';
const tunnels = makeTunnels(160, { seed: 21 });
const clouds = cloudsAmong(tunnels, 40, 'list');
const expectedIds = [...tunnels.filter(isAgent).map((t) => `ep_${suffix(t.id)}`), ...clouds.map((c) => c.id)]
  .sort()
  .reverse();

const standIn = writableStandIn(() => ({ [KEY]: { tunnels, endpoints: clouds } }));
const { endpointsUrl, create, writeTunnels } = standIn;

describe('GET /endpoints paging', () => {
  it.each([1, 7, 100])(
    'walks every endpoint with limit %i, newest first, none missing or repeated',
    async (limit) => {
      const pages = await walkEndpoints(endpointsUrl(`?limit=${limit}`), KEY);
      const ids = pages.flatMap((page) => page.endpoints.map((endpoint) => endpoint.id));
      expect(ids).toEqual(expectedIds);
      expect(pages).toHaveLength(Math.ceil(expectedIds.length / limit));
      for (const page of pages) {
        expect(page.uri).toBe(endpointsUrl());
        const last = page.endpoints.at(-1)?.id;
        if (page.next_page_uri !== null) {
          expect(page.endpoints).toHaveLength(limit);
          expect(page.next_page_uri).toBe(endpointsUrl(`?before_id=${last}&limit=${limit}`));
        }
      }
      // Both kinds interleave: the list is one order, not agents then clouds.
      const types = pages.flatMap((page) => page.endpoints.map((endpoint) => endpoint.type));
      expect(types.indexOf('cloud')).toBeLessThan(types.lastIndexOf('agent'));
    },
  );

  it('defaults to 100, pages with before_id, and says null exactly when no older endpoint exists', async () => {
    const first = (await call(endpointsUrl(), { key: KEY })).json as EndpointListBody;
    expect(first.endpoints.map((endpoint) => endpoint.id)).toEqual(expectedIds.slice(0, 100));
    expect(first.next_page_uri).toBe(endpointsUrl(`?before_id=${expectedIds[99]}&limit=100`));
    const n = expectedIds.length;
    const exact = (await call(endpointsUrl(`?limit=10&before_id=${expectedIds[n - 11]}`), { key: KEY }))
      .json as EndpointListBody;
    expect(exact.endpoints.map((endpoint) => endpoint.id)).toEqual(expectedIds.slice(n - 10));
    expect(exact.next_page_uri).toBeNull();
    const between = newId('ep', new Date(0x7fff_ffff * 1000));
    const newest = (await call(endpointsUrl(`?limit=2&before_id=${between}`), { key: KEY }))
      .json as EndpointListBody;
    expect(newest.endpoints.map((endpoint) => endpoint.id)).toEqual(expectedIds.slice(0, 2));
    expect(await call(endpointsUrl(), { key: 'empty-key' })).toMatchObject({
      status: 200,
      json: { endpoints: [], uri: endpointsUrl(), next_page_uri: null },
    });
  });

  it('validates limit, before_id, unknown and repeated parameters and a body as /tunnels does', async () => {
    expectApiError(await call(endpointsUrl('?limit=0'), { key: KEY }), 400, 'ERR_NGROK_233');
    expectApiError(await call(endpointsUrl('?limit=abc'), { key: KEY }), 400, 'ERR_NGROK_244');
    const tunnelId = tunnels[0]?.id ?? '';
    const wrongKind = await call(endpointsUrl(`?before_id=${tunnelId}`), { key: KEY });
    expectApiError(wrongKind, 400, 'ERR_NGROK_227');
    expectMsg(wrongKind, `The ID ${tunnelId} is invalid; expected an ID with the prefix ep.`);
    expectApiError(await call(endpointsUrl('?region=us'), { key: KEY }), 400, 'ERR_NGROK_231');
    expectApiError(await call(endpointsUrl('?limit=1&limit=2'), { key: KEY }), 400, 'ERR_NGROK_232');
    const withBody = await raw(standIn.sandbox.url, '/endpoints', {
      headers: { ...headersFor(KEY), 'content-type': 'application/json' },
      body: '{}',
    });
    expectRawError(withBody, 400, 'ERR_NGROK_211');
  });

  it('never sends null except next_page_uri, nor empty strings', async () => {
    const page = (await call(endpointsUrl(), { key: KEY })).json as EndpointListBody;
    expect(nullPaths(page)).toEqual([]);
    for (const endpoint of page.endpoints) {
      expect(Object.values(endpoint).filter((value) => value === '')).toEqual([]);
    }
  });
});

describe('agent endpoints', () => {
  it('exist for exactly the agent tunnels, with the tunnel suffix and the tunnel facts', async () => {
    const listed = standIn.sandbox.listEndpoints(KEY);
    const byId = new Map(listed.map((endpoint) => [endpoint.id, endpoint]));
    for (const tunnel of tunnels) {
      const id = `ep_${suffix(tunnel.id)}`;
      if (!isAgent(tunnel)) {
        expect(byId.has(id)).toBe(false);
        continue;
      }
      expect(tunnel.endpoint?.id).toBe(id);
      const endpoint = byId.get(id);
      expect(endpoint).toMatchObject({
        type: 'agent',
        url: tunnel.public_url,
        public_url: tunnel.public_url,
        proto: tunnel.proto,
        region: tunnel.region,
        created_at: tunnel.started_at,
        updated_at: tunnel.started_at,
        upstream_url: tunnel.forwards_to,
        tunnel: { id: tunnel.id, uri: `${standIn.sandbox.url}/tunnels/${tunnel.id}` },
        tunnel_session: {
          id: tunnel.tunnel_session.id,
          uri: `${standIn.sandbox.url}/tunnel_sessions/${tunnel.tunnel_session.id}`,
        },
        bindings: ['public'],
        uri: endpointsUrl(`/${id}`),
      });
      expect(endpoint?.traffic_policy).toBeUndefined();
    }
  });

  it('is served whole by GET /endpoints/{id}', async () => {
    const tcp = tunnels.find((tunnel) => tunnel.proto === 'tcp' && tunnel.metadata !== undefined);
    if (tcp === undefined) throw new Error('fixture lacks a tcp tunnel with metadata');
    const id = `ep_${suffix(tcp.id)}`;
    const answer = await call(endpointsUrl(`/${id}`), { key: KEY });
    expect(answer.status).toBe(200);
    const url = tcp.public_url ?? '';
    const [, host = '', port = ''] = /^tcp:\/\/([^:]+):(\d+)$/.exec(url) ?? [];
    expect(answer.json).toEqual({
      id,
      region: tcp.region,
      created_at: tcp.started_at,
      updated_at: tcp.started_at,
      public_url: url,
      proto: 'tcp',
      scheme: 'tcp',
      hostport: `${host}:${port}`,
      host,
      port: Number(port),
      type: 'agent',
      metadata: tcp.metadata,
      tunnel: { id: tcp.id, uri: `${standIn.sandbox.url}/tunnels/${tcp.id}` },
      upstream_url: tcp.forwards_to,
      url,
      bindings: ['public'],
      tunnel_session: {
        id: tcp.tunnel_session.id,
        uri: `${standIn.sandbox.url}/tunnel_sessions/${tcp.tunnel_session.id}`,
      },
      uri: endpointsUrl(`/${id}`),
      pooling_enabled: false,
    } satisfies UpstreamEndpoint);
  });

  it('comes and goes with its tunnel (addTunnel, removeTunnel)', async () => {
    const [agent] = makeTunnels(1, { seed: 23, kind: 'agent', start: new Date('2030-01-01T00:00:00Z') });
    if (agent === undefined) throw new Error('no tunnel');
    const id = `ep_${suffix(agent.id)}`;
    standIn.sandbox.addTunnel(WRITES, agent);
    const first = (await call(endpointsUrl('?limit=1'), { key: WRITES })).json as EndpointListBody;
    expect(first.endpoints[0]?.id).toBe(id);
    expect(standIn.sandbox.removeTunnel(WRITES, agent.id)).toBe(true);
    expectApiError(await call(endpointsUrl(`/${id}`), { key: WRITES }), 404);
    expect(standIn.sandbox.listEndpoints(WRITES).some((endpoint) => endpoint.id === id)).toBe(false);
  });

  it('refuses PATCH and DELETE with a 400 saying agent endpoints are read-only', async () => {
    const id = `ep_${suffix(writeTunnels[0]?.id ?? '')}`;
    const msg = `The endpoint ${id} is an agent endpoint, and agent endpoints are read-only: only cloud endpoints can be changed or deleted through the API.`;
    const patched = await call(endpointsUrl(`/${id}`), {
      key: WRITES,
      method: 'PATCH',
      body: { description: 'x' },
    });
    expectApiError(patched, 400, 'ERR_NGROK_248');
    expectMsg(patched, msg);
    const deleted = await call(endpointsUrl(`/${id}`), { key: WRITES, method: 'DELETE' });
    expectApiError(deleted, 400, 'ERR_NGROK_248');
    expectMsg(deleted, msg);
    expect((await call(endpointsUrl(`/${id}`), { key: WRITES })).status).toBe(200);
  });
});

describe('everything other routes get', () => {
  it('counts calls per route and takes faults per route', async () => {
    standIn.sandbox.resetCalls();
    const id = standIn.writesSeed[0]?.id ?? '';
    await call(endpointsUrl(), { key: WRITES });
    await call(endpointsUrl(`/${id}`), { key: WRITES });
    await call(endpointsUrl(`/${id}`), { key: WRITES, method: 'PATCH', body: { description: 'counted' } });
    await call(endpointsUrl(`/${newId('ep')}`), { key: WRITES, method: 'DELETE' });
    await create({ type: 'agent' });
    expect(
      ['listEndpoints', 'getEndpoint', 'updateEndpoint', 'deleteEndpoint', 'createEndpoint'].map((route) =>
        standIn.sandbox.calls(route as 'listEndpoints', WRITES),
      ),
    ).toEqual([1, 1, 1, 1, 1]);
    expect(standIn.sandbox.calls('listTunnels')).toBe(0);

    standIn.sandbox.inject('listEndpoints', { kind: 'status', status: 503 });
    standIn.sandbox.inject('getEndpoint', { kind: 'missingField' });
    expectApiError(await call(endpointsUrl(), { key: WRITES }), 503);
    expect((await call(endpointsUrl(), { key: WRITES })).status).toBe(200);
    const missing = (await call(endpointsUrl(`/${id}`), { key: WRITES })).json as Record<string, unknown>;
    expect('id' in missing).toBe(false);
    expect(missing.type).toBe('cloud');
  });

  it('checks auth and the version header, and rate limits', async () => {
    expectApiError(await call(endpointsUrl()), 403, 'ERR_NGROK_200');
    expectApiError(
      await call(endpointsUrl(), { headers: { authorization: `Bearer ${WRITES}` } }),
      400,
      'ERR_NGROK_218',
    );
    const limited = await startSandbox({ rateLimit: { max: 2, windowMs: 60_000 } });
    try {
      const key = limited.keys[0] ?? '';
      expect((await call(`${limited.url}/endpoints?limit=1`, { key })).status).toBe(200);
      expect((await call(`${limited.url}/endpoints?limit=1`, { key })).status).toBe(200);
      expectApiError(await call(`${limited.url}/endpoints?limit=1`, { key }), 429, 'ERR_NGROK_226');
    } finally {
      await limited.close();
    }
  });
});
