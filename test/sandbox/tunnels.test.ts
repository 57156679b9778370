import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, newId, type Sandbox, startSandbox, type UpstreamTunnel } from '../../src/sandbox';
import {
  call,
  expectApiError,
  expectRawError,
  headersFor,
  nullPaths,
  OP_ID,
  raw,
  type TunnelListBody,
} from './helpers';

const KEY = 'tunnels-key';
const small = makeTunnels(250, { seed: 3 });
const large = makeTunnels(1000, { seed: 4 });

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: { [KEY]: { tunnels: small }, 'large-key': { tunnels: large }, 'empty-key': {} },
    rateLimit: false,
  });
});
afterAll(() => sandbox.close());

async function list(url: string, key = KEY): Promise<TunnelListBody> {
  const answer = await call(url, { key });
  expect(answer.status).toBe(200);
  return answer.json as TunnelListBody;
}

/** Follows next_page_uri to the end; returns every id seen and the number of pages. */
async function walk(key: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let url: string | null = `${sandbox.url}/tunnels?limit=${limit}`;
  let pages = 0;
  while (url !== null) {
    const page = await list(url, key);
    pages++;
    expect(page.uri).toBe(`${sandbox.url}/tunnels`);
    expect(page.tunnels.length).toBeLessThanOrEqual(limit);
    ids.push(...page.tunnels.map((tunnel) => tunnel.id));
    const last = page.tunnels.at(-1)?.id;
    if (page.next_page_uri !== null) {
      expect(page.tunnels).toHaveLength(limit);
      expect(page.next_page_uri).toBe(`${sandbox.url}/tunnels?before_id=${last}&limit=${limit}`);
    }
    url = page.next_page_uri;
  }
  return { ids, pages };
}

describe('GET /tunnels paging', () => {
  it.each([1, 7, 100])(
    'walks 250 tunnels with limit %i, newest first, none missing or repeated',
    async (limit) => {
      const { ids, pages } = await walk(KEY, limit);
      expect(ids).toEqual(small.map((tunnel) => tunnel.id));
      expect(pages).toBe(Math.ceil(250 / limit));
    },
  );

  it.each([1, 7, 100])('walks 1000 tunnels with limit %i', async (limit) => {
    const { ids, pages } = await walk('large-key', limit);
    expect(ids).toEqual(large.map((tunnel) => tunnel.id));
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(pages).toBe(Math.ceil(1000 / limit));
  });

  it('defaults to 100 per page and says null exactly when no older tunnel exists', async () => {
    const first = await list(`${sandbox.url}/tunnels`);
    expect(first.tunnels).toHaveLength(100);
    expect(first.next_page_uri).toBe(`${sandbox.url}/tunnels?before_id=${small[99]?.id}&limit=100`);
    // 250 = 100 + 100 + 50: the last page is short; a page ending exactly on the last item is null too.
    const exact = await list(`${sandbox.url}/tunnels?limit=50&before_id=${small[199]?.id}`);
    expect(exact.tunnels.map((tunnel) => tunnel.id)).toEqual(small.slice(200).map((tunnel) => tunnel.id));
    expect(exact.next_page_uri).toBeNull();
    const almost = await list(`${sandbox.url}/tunnels?limit=49&before_id=${small[199]?.id}`);
    expect(almost.next_page_uri).not.toBeNull();
  });

  it('treats before_id as a position, even for an id it does not hold', async () => {
    // An id minted one second before tunnel i, where the next older one is at least 2 s older.
    const time = (index: number) => Date.parse(small[index]?.started_at ?? '');
    const i = small.findIndex((_, index) => index > 0 && time(index) - time(index + 1) >= 2000);
    const between = newId('tn', new Date(time(i) - 1000));
    const page = await list(`${sandbox.url}/tunnels?limit=3&before_id=${between}`);
    expect(page.tunnels.map((tunnel) => tunnel.id)).toEqual(
      small.slice(i + 1, i + 4).map((tunnel) => tunnel.id),
    );
    const oldest = await list(`${sandbox.url}/tunnels?before_id=${small[249]?.id}`);
    expect(oldest).toEqual({ tunnels: [], uri: `${sandbox.url}/tunnels`, next_page_uri: null });
  });

  it('answers an empty account with an empty list', async () => {
    expect(await list(`${sandbox.url}/tunnels`, 'empty-key')).toEqual({
      tunnels: [],
      uri: `${sandbox.url}/tunnels`,
      next_page_uri: null,
    });
  });
});

describe('GET /tunnels validation', () => {
  it.each(['0', '101', '-1', '99999999999999999999'])('limit=%s → 400 ERR_NGROK_233', async (limit) => {
    expectApiError(await call(`${sandbox.url}/tunnels?limit=${limit}`, { key: KEY }), 400, 'ERR_NGROK_233');
  });

  it.each(['', 'abc', '1.5', '1e2', '%20'])('limit=%s → 400 ERR_NGROK_244', async (limit) => {
    expectApiError(await call(`${sandbox.url}/tunnels?limit=${limit}`, { key: KEY }), 400, 'ERR_NGROK_244');
  });

  it('accepts limits 1 and 100', async () => {
    expect((await list(`${sandbox.url}/tunnels?limit=1`)).tunnels).toHaveLength(1);
    expect((await list(`${sandbox.url}/tunnels?limit=100`)).tunnels).toHaveLength(100);
  });

  it('rejects unknown query parameters with ERR_NGROK_231', async () => {
    expectApiError(await call(`${sandbox.url}/tunnels?region=us`, { key: KEY }), 400, 'ERR_NGROK_231');
    expectApiError(
      await call(`${sandbox.url}/tunnels?limit=5&after_id=x`, { key: KEY }),
      400,
      'ERR_NGROK_231',
    );
  });

  it('rejects repeated query parameters with ERR_NGROK_232', async () => {
    expectApiError(await call(`${sandbox.url}/tunnels?limit=5&limit=5`, { key: KEY }), 400, 'ERR_NGROK_232');
    const id = small[0]?.id;
    expectApiError(
      await call(`${sandbox.url}/tunnels?before_id=${id}&before_id=${id}`, { key: KEY }),
      400,
      'ERR_NGROK_232',
    );
  });

  it.each(['', 'abc', 'ep_32ELFeTyzStvllGupngXcSO5GUy', 'tn_short'])(
    'before_id=%s → 400 ERR_NGROK_227',
    async (id) => {
      expectApiError(
        await call(`${sandbox.url}/tunnels?before_id=${id}`, { key: KEY }),
        400,
        'ERR_NGROK_227',
      );
    },
  );

  it('rejects a body on GET with ERR_NGROK_211', async () => {
    const answer = await raw(sandbox.url, '/tunnels', {
      headers: { ...headersFor(KEY), 'content-type': 'application/json' },
      body: '{}',
    });
    expectRawError(answer, 400, 'ERR_NGROK_211');
  });
});

describe('GET /tunnels/{id}', () => {
  it('returns the tunnel as listed', async () => {
    const page = await list(`${sandbox.url}/tunnels?limit=20`);
    for (const listed of page.tunnels.slice(0, 5)) {
      const answer = await call(`${sandbox.url}/tunnels/${listed.id}`, { key: KEY });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('ngrok-operation-id')).toMatch(OP_ID);
      expect(answer.json).toEqual(listed);
    }
  });

  it('rewrites ref uris to the public base and omits absent fields', async () => {
    const agent = small.find((tunnel) => tunnel.proto !== undefined);
    const labeled = small.find((tunnel) => tunnel.labels !== undefined);
    if (agent === undefined || labeled === undefined) throw new Error('fixture lacks a kind');
    const agentBody = (await call(`${sandbox.url}/tunnels/${agent.id}`, { key: KEY })).json;
    expect(agentBody).toEqual({
      ...agent,
      tunnel_session: {
        id: agent.tunnel_session.id,
        uri: `${sandbox.url}/tunnel_sessions/${agent.tunnel_session.id}`,
      },
      endpoint: { id: agent.endpoint?.id, uri: `${sandbox.url}/endpoints/${agent.endpoint?.id}` },
    });
    const labeledBody = (await call(`${sandbox.url}/tunnels/${labeled.id}`, { key: KEY })).json as Record<
      string,
      unknown
    >;
    expect(Object.keys(labeledBody)).not.toContain('proto');
    expect(Object.keys(labeledBody)).not.toContain('public_url');
    expect(Object.keys(labeledBody)).not.toContain('endpoint');
    expect(labeledBody.backends).toEqual(
      labeled.backends?.map((backend) => ({
        id: backend.id,
        uri: `${sandbox.url}/backends/tunnel_group/${backend.id}`,
      })),
    );
  });

  it('answers an unknown id with the plain 404 body (no error_code)', async () => {
    for (const id of [newId('tn'), 'nope', 'tn_%2F..']) {
      const answer = await call(`${sandbox.url}/tunnels/${id}`, { key: KEY });
      expectApiError(answer, 404, undefined);
      expect((answer.json as { msg: string }).msg).toBe('Resource not found');
    }
  });

  it('rejects any query parameter with ERR_NGROK_231', async () => {
    expectApiError(
      await call(`${sandbox.url}/tunnels/${small[0]?.id}?limit=1`, { key: KEY }),
      400,
      'ERR_NGROK_231',
    );
  });

  it('never sends null except next_page_uri', async () => {
    const page = await call(`${sandbox.url}/tunnels?limit=100`, { key: KEY });
    expect(nullPaths(page.json)).toEqual([]);
    const last = await call(`${sandbox.url}/tunnels?before_id=${small[200]?.id}`, { key: KEY });
    expect((last.json as TunnelListBody).next_page_uri).toBeNull();
    expect(nullPaths(last.json)).toEqual([]);
  });
});

describe('publicBaseUrl', () => {
  it('is the base of uri, next_page_uri and every ref', async () => {
    const other = await startSandbox({
      accounts: { [KEY]: { tunnels: small } },
      publicBaseUrl: 'https://api.example.test/',
    });
    try {
      const body = (await call(`${other.url}/tunnels?limit=2`, { key: KEY })).json as TunnelListBody & {
        tunnels: { tunnel_session: { uri: string } }[];
      };
      expect(body.uri).toBe('https://api.example.test/tunnels');
      expect(body.next_page_uri).toBe(`https://api.example.test/tunnels?before_id=${small[1]?.id}&limit=2`);
      expect(body.tunnels[0]?.tunnel_session.uri).toMatch(
        /^https:\/\/api\.example\.test\/tunnel_sessions\/ts_/,
      );
    } finally {
      await other.close();
    }
  });
});

describe('seeded variations', () => {
  it('passes unknown fields through, keeps a single-Ref backends, and drops nulls', async () => {
    const [base] = makeTunnels(1, { kind: 'labeled', seed: 9 });
    if (base === undefined) throw new Error('no tunnel');
    const backend = base.backends?.[0];
    const odd = {
      ...base,
      backends: backend,
      metadata: null,
      future_field: 'x',
    } as unknown as UpstreamTunnel;
    const other = await startSandbox({ accounts: { [KEY]: { tunnels: [odd] } } });
    try {
      const body = (await call(`${other.url}/tunnels/${base.id}`, { key: KEY })).json as Record<
        string,
        unknown
      >;
      expect(body.backends).toEqual({
        id: backend?.id,
        uri: `${other.url}/backends/tunnel_group/${backend?.id}`,
      });
      expect(body.future_field).toBe('x');
      expect('metadata' in body).toBe(false);
    } finally {
      await other.close();
    }
  });
});
