// The stand-in's HTTPS edges and backends (read-only), credentials and TLS certificates: served as the
// upstream contract describes them, paged newest first, the filterable ones filtered, and the demo data
// joining (every module's backend, every failover's and weighted one's backends, every agent's
// credential and every domain's certificate exist; tunnel groups list the tunnels that name them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, demoData, type Sandbox, startSandbox } from '../../src/sandbox';
import { call, expectApiError } from './helpers';

type Json = Record<string, unknown>;
const KINDS = ['tunnel_group', 'failover', 'weighted', 'http_response', 'static'] as const;
const RETIRED = 'retired-key';

describe('edges, backends, credentials and certificates on the stand-in', () => {
  let sandbox: Sandbox;
  const get = async (path: string, key = DEFAULT_API_KEY) => call(`${sandbox.url}${path}`, { key });
  const items = async (path: string) =>
    Object.values((await get(`${path}?limit=100`)).json as Json).find(Array.isArray) as Json[];
  beforeAll(async () => {
    sandbox = await startSandbox({
      accounts: { [DEFAULT_API_KEY]: demoData(), [RETIRED]: { ...demoData(), edgesRetired: true } },
    });
  });
  afterAll(() => sandbox.close());

  it('lists edges newest first with their routes, pages them, and reads one; unknown is 404', async () => {
    const edges = await items('/edges/https');
    expect(edges.map((e) => e.id)).toEqual([...edges.map((e) => String(e.id))].sort().reverse());
    const first = await get('/edges/https?limit=1');
    expect(first.status).toBe(200);
    const page = first.json as Json;
    expect(page.next_page_uri).toBe(`${sandbox.url}/edges/https?before_id=${edges[0]?.id}&limit=1`);
    const one = await get(`/edges/https/${edges[1]?.id}`);
    expect(one.json).toEqual(edges[1]);
    expect(
      ((edges[0]?.routes ?? []) as Json[]).every(
        (r) => r.edge_id === edges[0]?.id && typeof r.match === 'string',
      ),
    ).toBe(true);
    expectApiError(await get('/edges/https/edghts_2Zzzzzzzzzzzzzzzzzzzzzzzzzz'), 404, undefined);
    expectApiError(await get('/edges/https?filter=true'), 400, 'ERR_NGROK_231');
  });

  it('every backend a module, failover or weighted backend names exists, and is of its kind only', async () => {
    const edges = await items('/edges/https');
    const names = new Set<string>();
    for (const route of edges.flatMap((e) => e.routes as Json[]))
      if (route.backend) names.add(String(((route.backend as Json).backend as Json).id));
    const byKind = new Map<string, Json[]>();
    for (const kind of KINDS) byKind.set(kind, await items(`/backends/${kind}`));
    for (const b of [...(byKind.get('failover') ?? []), ...(byKind.get('weighted') ?? [])])
      for (const id of Array.isArray(b.backends) ? b.backends : Object.keys(b.backends as Json))
        names.add(String(id));
    const all = new Set([...byKind.values()].flat().map((b) => String(b.id)));
    expect([...names].filter((id) => !all.has(id))).toEqual([]);
    expect(new Set([...names].map((id) => id.split('_')[0])).size).toBe(5);
    const [tg] = byKind.get('tunnel_group') ?? [];
    expect((await get(`/backends/tunnel_group/${tg?.id}`)).json).toEqual(tg);
    expectApiError(await get(`/backends/static/${tg?.id}`), 404, undefined);
  });

  it('a tunnel group lists the online tunnels naming it, each carrying its labels', async () => {
    const tunnels = await items('/tunnels');
    for (const group of await items('/backends/tunnel_group')) {
      const named = tunnels.filter((t) => (t.backends as Json[] | undefined)?.some((b) => b.id === group.id));
      expect((group.tunnels as Json[]).map((t) => t.id)).toEqual(named.map((t) => t.id));
      for (const t of named) expect(t.labels).toMatchObject(group.labels as Json);
    }
  });

  it("every agent's credential and every domain's certificate is listed; both lists filter by id", async () => {
    const credentials = new Set((await items('/credentials')).map((c) => c.id));
    for (const s of await items('/tunnel_sessions'))
      expect(credentials.has((s.credential as Json).id)).toBe(true);
    const certificates = await items('/tls_certificates');
    const ids = new Set(certificates.map((c) => c.id));
    const domains = (await items('/reserved_domains')).filter((d) => d.certificate);
    expect(domains.length).toBeGreaterThan(0);
    for (const d of domains) expect(ids.has((d.certificate as Json).id)).toBe(true);
    const [a, b] = certificates;
    const filtered = await get(
      `/tls_certificates?filter=${encodeURIComponent(`obj.id in ["${a?.id}", "${b?.id}"]`)}`,
    );
    expect(((filtered.json as Json).tls_certificates as Json[]).map((c) => c.id)).toEqual([a?.id, b?.id]);
    const [cr] = [...credentials];
    const one = await get(`/credentials?filter=${encodeURIComponent(`obj.id == "${cr}"`)}`);
    expect(((one.json as Json).credentials as Json[]).map((c) => c.id)).toEqual([cr]);
    expectApiError(
      await get(`/credentials?filter=${encodeURIComponent('obj.acl == "x"')}`),
      400,
      'ERR_NGROK_250',
    );
  });

  it('an account whose edges are retired answers its edge reads with ERR_NGROK_7008; its backends still answer', async () => {
    expectApiError(await get('/edges/https', RETIRED), 400, 'ERR_NGROK_7008');
    expect((await get('/backends/static', RETIRED)).status).toBe(200);
  });
});
