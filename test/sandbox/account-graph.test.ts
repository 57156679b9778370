// The stand-in's account graph: agents (tunnel sessions), reserved domains and addresses served as
// the upstream contract describes them, demo data that joins, and the agent commands.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountSeed,
  agentSessionOf,
  demoData,
  joinedAccount,
  makeTunnels,
  newId,
  type Sandbox,
  startSandbox,
} from '../../src/sandbox';
import { call } from './helpers';

const KEY = 'graph-key';

type Item = Record<string, unknown> & { id: string };
type ListBody = Record<string, Item[]> & { uri: string; next_page_uri: string | null };

describe('the account graph of the stand-in', () => {
  let sandbox: Sandbox;
  const seed = demoData();
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: seed } });
  });
  afterAll(() => sandbox.close());

  const get = async (path: string) => call(`${sandbox.url}${path}`, { key: KEY });

  it('lists sessions newest first, each exactly as the upstream sends it (optional fields left out)', async () => {
    const { status, json } = await get('/tunnel_sessions?limit=2');
    expect(status).toBe(200);
    const body = json as ListBody;
    const [first, second] = seed.tunnelSessions ?? [];
    const uri = (id: string) => `${sandbox.url}/tunnel_sessions/${id}`;
    const cred = (s: typeof first) => ({
      id: s?.credential?.id,
      uri: `${sandbox.url}/credentials/${s?.credential?.id}`,
    });
    expect(JSON.stringify(body.tunnel_sessions?.[0])).toBe(
      JSON.stringify({
        id: first?.id,
        uri: uri(first?.id ?? ''),
        agent_version: first?.agent_version,
        credential: cred(first),
        ip: first?.ip,
        ...(first?.metadata === undefined ? {} : { metadata: first.metadata }),
        os: 'windows',
        region: first?.region,
        started_at: first?.started_at,
        transport: first?.transport,
      }),
    );
    expect(body.tunnel_sessions?.[1]?.metadata).toBe('{"update":"disabled"}');
    expect(Object.keys(body.tunnel_sessions?.[1] ?? {})).toEqual([
      'id',
      'uri',
      'agent_version',
      'credential',
      'ip',
      'metadata',
      'os',
      'region',
      'started_at',
      'transport',
    ]);
    expect(body.uri).toBe(`${sandbox.url}/tunnel_sessions`);
    expect(body.next_page_uri).toBe(`${sandbox.url}/tunnel_sessions?before_id=${second?.id}&limit=2`);
  });

  it('pages every list with before_id and filters on obj.id before paging', async () => {
    for (const collection of ['tunnel_sessions', 'reserved_domains', 'reserved_addrs'] as const) {
      const all = sandbox.listed(KEY, collection);
      expect(all.length).toBeGreaterThan(1);
      const seen: unknown[] = [];
      let next: string | null = `/${collection}?limit=1`;
      while (next !== null) {
        const body = (await get(next.replace(sandbox.url, ''))).json as ListBody;
        seen.push(...(body[collection] ?? []));
        next = body.next_page_uri;
      }
      expect(seen).toEqual(all);
      const ids = [all.at(-1)?.id, all[0]?.id] as string[];
      const filter = encodeURIComponent(`obj.id in ${JSON.stringify(ids)}`);
      const filtered = (await get(`/${collection}?limit=1&filter=${filter}`)).json as ListBody;
      expect(filtered[collection]).toEqual([all[0]]);
      expect(filtered.next_page_uri).toBe(
        `${sandbox.url}/${collection}?before_id=${ids[1]}&limit=1&filter=${filter}`,
      );
      expect((await get(`/${collection}/${ids[0]}`)).json).toEqual(all.at(-1));
    }
  });

  it('answers 404 for an unknown id and 400 for a before_id of another kind', async () => {
    expect((await get('/tunnel_sessions/ts_unknown')).status).toBe(404);
    const wrong = await get('/reserved_addrs?before_id=rd_325cyYyqalFFqmWFcUar5NwjtZl');
    expect([wrong.status, (wrong.json as { error_code: string }).error_code]).toEqual([400, 'ERR_NGROK_227']);
  });

  it('joins: every tunnel session is listed; every endpoint domain and tcp_addr is a listed reservation', () => {
    const sessions = new Set(sandbox.listed(KEY, 'tunnel_sessions').map((s) => s.id));
    for (const tunnel of seed.tunnels ?? []) expect(sessions.has(tunnel.tunnel_session.id)).toBe(true);
    const domains = new Map(sandbox.listed(KEY, 'reserved_domains').map((d) => [d.id, d.domain]));
    const addrs = new Map(sandbox.listed(KEY, 'reserved_addrs').map((a) => [a.id, a.addr]));
    const endpoints = sandbox.listEndpoints(KEY);
    const onDomains = endpoints.filter((e) => e.domain !== undefined);
    const onAddrs = endpoints.filter((e) => e.tcp_addr !== undefined);
    expect([onDomains.length, onAddrs.length]).toEqual([8, 2]);
    for (const e of onDomains) expect(domains.get(String(e.domain?.id))).toBe(e.host);
    for (const e of onAddrs) expect(addrs.get(String(e.tcp_addr?.id))).toBe(e.hostport);
    expect(onDomains.every((e) => e.domain?.uri === `${sandbox.url}/reserved_domains/${e.domain?.id}`)).toBe(
      true,
    );
  });
});

describe('agent commands on the stand-in', () => {
  let sandbox: Sandbox;
  const tunnels = makeTunnels(6, { seed: 21, kind: 'agent' });
  const sessionIds = [...new Set(tunnels.map((t) => t.tunnel_session.id))];
  const sessions = sessionIds.map((id, i) => ({
    ...agentSessionOf(id),
    os: i === 0 ? 'windows' : 'linux',
    ...(i === 1 ? { metadata: '{"update":"in-progress"}' } : {}),
  }));
  const account = (): AccountSeed => structuredClone({ tunnels, tunnelSessions: sessions });

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: account(), other: account() } });
  });
  afterAll(() => sandbox.close());
  afterEach(() => {
    sandbox.seed(KEY, account());
  });

  const command = (id: string, name: string, body: unknown = {}, key = KEY) =>
    call(`${sandbox.url}/tunnel_sessions/${id}/${name}`, { key, method: 'POST', body });
  const listed = () => sandbox.listed(KEY, 'tunnel_sessions').map((s) => s.id);
  const msg = (json: unknown) => (json as { msg: string; error_code: string }).msg;

  it('stop: 204, the agent leaves the list with its tunnels and their agent endpoints', async () => {
    const id = sessionIds[2] ?? '';
    const own = tunnels.filter((t) => t.tunnel_session.id === id).map((t) => t.id);
    expect(own.length).toBeGreaterThan(0);
    const answer = await command(id, 'stop');
    expect([answer.status, answer.text]).toEqual([204, '']);
    expect(listed()).not.toContain(id);
    expect(sandbox.account(KEY).tunnels?.filter((t) => own.includes(t.id))).toEqual([]);
    expect(sandbox.listEndpoints(KEY).filter((e) => e.tunnel_session?.id === id)).toEqual([]);
    expect(sandbox.account('other').tunnelSessions).toHaveLength(sessions.length);
    expect((await command(id, 'stop')).status).toBe(404);
  });

  it('restart: the agent comes back newest, under a new id, with its tunnels under new ids', async () => {
    const id = sessionIds[2] ?? '';
    const before = tunnels.filter((t) => t.tunnel_session.id === id);
    expect((await command(id, 'restart')).status).toBe(204);
    const [newest] = listed();
    expect(listed()).not.toContain(id);
    expect(listed()).toHaveLength(sessions.length);
    const again = sandbox.account(KEY).tunnels?.filter((t) => t.tunnel_session.id === newest) ?? [];
    expect(again.map((t) => t.public_url).sort()).toEqual(before.map((t) => t.public_url).sort());
    expect(again.some((t) => before.some((b) => b.id === t.id))).toBe(false);
  });

  it('restart on Windows, and each refusal of update, are 400s with the provider-like msg', async () => {
    const windows = await command(sessionIds[0] ?? '', 'restart');
    expect([windows.status, msg(windows.json)]).toEqual([
      400,
      'This ngrok agent does not support remote restarting: restarting is not supported on Windows.',
    ]);
    const progress = await command(sessionIds[1] ?? '', 'update');
    expect(msg(progress.json)).toBe(
      'This ngrok agent does not support remote updating: an update of this agent is already in progress.',
    );
    const id = sessionIds[3] ?? '';
    expect((await command(id, 'update')).status).toBe(204);
    const awaiting = await command(id, 'update');
    expect([awaiting.status, msg(awaiting.json)]).toEqual([
      400,
      'This ngrok agent does not support remote updating: this agent has already been updated and must be restarted to run the new version.',
    ]);
    expect((await command(id, 'restart')).status).toBe(204);
    const none = await command(String(listed()[0]), 'update');
    expect(msg(none.json)).toBe(
      'This ngrok agent does not support remote updating: no update is available for this agent.',
    );
  });

  it('a body other than {} is checked; a wrong method or command is 404', async () => {
    const id = sessionIds[3] ?? '';
    const unknown = await command(id, 'stop', { force: true });
    expect([unknown.status, (unknown.json as { error_code: string }).error_code]).toEqual([
      400,
      'ERR_NGROK_214',
    ]);
    expect((await command(id, 'reboot')).status).toBe(404);
    expect((await call(`${sandbox.url}/tunnel_sessions/${id}/stop`, { key: KEY })).status).toBe(404);
    expect(listed()).toContain(id);
  });
});

describe('stand-in options for the account graph', () => {
  let sandbox: Sandbox;
  afterAll(() => sandbox.close());

  it('agentUpdate sets what an update meets; joinedAccount gives each agent tunnel its own agent and reservation', async () => {
    const joined = joinedAccount(12, { seed: 4 });
    sandbox = await startSandbox({ rateLimit: false, agentUpdate: 'disabled', accounts: { [KEY]: joined } });
    const endpoints = sandbox.listEndpoints(KEY);
    expect(endpoints).toHaveLength(12);
    expect(new Set(endpoints.map((e) => e.tunnel_session?.id)).size).toBe(12);
    expect(endpoints.every((e) => (e.domain ?? e.tcp_addr) !== undefined)).toBe(true);
    const id = joined.tunnelSessions?.[0]?.id ?? '';
    const answer = await call(`${sandbox.url}/tunnel_sessions/${id}/update`, {
      key: KEY,
      method: 'POST',
      body: {},
    });
    expect((answer.json as { msg: string }).msg).toMatch(/update checks are disabled/);
  });
});

describe('wildcard reserved domains in the stand-in', () => {
  let sandbox: Sandbox;
  afterAll(() => sandbox.close());

  it("an endpoint's domain is its host's own reservation, else the nearest wildcard one above it", async () => {
    const at = '2025-06-01T00:00:00Z';
    const domain = (name: string) => ({ id: newId('rd'), created_at: at, domain: name });
    const [exact, wide, narrow] = [
      domain('a.example.com'),
      domain('*.example.com'),
      domain('*.b.example.com'),
    ];
    const endpoint = (host: string) => ({
      id: newId('ep'),
      url: `https://${host}`,
      created_at: at,
      updated_at: at,
      traffic_policy: '{}',
      bindings: ['public'],
    });
    const hosts = ['a.example.com', 'c.example.com', 'x.y.example.com', 'c.b.example.com', 'other.org'];
    sandbox = await startSandbox({
      rateLimit: false,
      accounts: { [KEY]: { reservedDomains: [exact, wide, narrow], endpoints: hosts.map(endpoint) } },
    });
    const domains = new Map(sandbox.listEndpoints(KEY).map((e) => [e.host, e.domain?.id]));
    expect(Object.fromEntries(domains)).toEqual({
      'a.example.com': exact.id,
      'c.example.com': wide.id,
      'x.y.example.com': wide.id,
      'c.b.example.com': narrow.id,
      'other.org': undefined,
    });
  });
});
