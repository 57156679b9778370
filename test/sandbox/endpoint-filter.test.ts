import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CloudEndpoint,
  makeTunnels,
  newId,
  type Sandbox,
  startSandbox,
  type UpstreamEndpoint,
} from '../../src/sandbox';
import { call, type EndpointListBody, expectApiError, walkEndpoints } from './helpers';

// GET /endpoints?filter=: every expectation is computed in plain TypeScript over the full list
// (listEndpoints), then compared with what the stand-in serves, page by page.

const KEY = 'filter-key';
const POLICY = '{"on_http_request":[{"actions":[{"type":"deny"}]}]}';
const TRICKY = 'say "hi" \\ back || true';

const tunnels = makeTunnels(150, { seed: 31 });
const clouds: CloudEndpoint[] = Array.from({ length: 30 }, (_, i) => {
  const created = new Date(Date.parse(tunnels[(i * 5) % 150]?.started_at ?? '') + 500);
  return {
    id: newId('ep', created),
    url: i % 3 === 0 ? `https://f${i}.internal` : `https://f${i}.example.com`,
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
    traffic_policy: POLICY,
    bindings: [i % 3 === 0 ? 'internal' : 'public'],
    ...(i === 7 ? { description: TRICKY } : {}),
    pooling_enabled: i % 2 === 0,
  };
});

let sandbox: Sandbox;
let all: UpstreamEndpoint[];

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: { [KEY]: { tunnels, endpoints: clouds } }, rateLimit: false });
  all = sandbox.listEndpoints(KEY);
});
afterAll(() => sandbox.close());

/** A value as a CEL string literal: JSON's escaping is valid CEL for these characters. */
const quote = (value: string) => JSON.stringify(value);

function filterUrl(filter: string, extra = ''): string {
  return `${sandbox.url}/endpoints?filter=${encodeURIComponent(filter)}${extra}`;
}

/** The ids a filter selects, over every page. */
async function served(filter: string, limit = 100): Promise<string[]> {
  const pages = await walkEndpoints(filterUrl(filter, `&limit=${limit}`), KEY);
  return pages.flatMap((page) => page.endpoints.map((endpoint) => endpoint.id));
}

const idsWhere = (keep: (endpoint: UpstreamEndpoint) => boolean) =>
  all.filter(keep).map((endpoint) => endpoint.id);

describe('filter: matching', () => {
  it('selects by type, with ==, != and in', async () => {
    const cloud = idsWhere((endpoint) => endpoint.type === 'cloud');
    expect(cloud).toHaveLength(30);
    expect(await served('obj.type == "cloud"')).toEqual(cloud);
    expect(await served('obj.type != "cloud"')).toEqual(idsWhere((endpoint) => endpoint.type === 'agent'));
    expect(await served('obj.type in ["agent", "cloud"]')).toEqual(all.map((endpoint) => endpoint.id));
    expect(await served('!(obj.type in ["agent"]) && obj.pooling_enabled')).toEqual(
      idsWhere((endpoint) => endpoint.type === 'cloud' && endpoint.pooling_enabled),
    );
    expect(await served('obj.region == "eu" || obj.proto == "tcp"')).toEqual(
      idsWhere((endpoint) => endpoint.region === 'eu' || endpoint.proto === 'tcp'),
    );
    expect(await served('obj.port == 443 && obj.tunnel.id != null')).toEqual(
      idsWhere((endpoint) => endpoint.port === 443 && endpoint.tunnel !== undefined),
    );
  });

  it('compares created_at with timestamp(), whatever the precision or offset', async () => {
    const middle = all[Math.floor(all.length / 2)]?.created_at ?? '';
    const at = Date.parse(middle);
    const offset = new Date(at + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    expect(await served(`obj.created_at >= timestamp("${middle}")`)).toEqual(
      idsWhere((endpoint) => Date.parse(endpoint.created_at) >= at),
    );
    expect(await served(`obj.created_at < timestamp("${offset}")`)).toEqual(
      idsWhere((endpoint) => Date.parse(endpoint.created_at) < at),
    );
    const both = await served(
      `obj.type == "cloud" && obj.created_at >= timestamp("${middle}") && obj.created_at <= timestamp("2100-01-01T00:00:00Z")`,
    );
    expect(both).toEqual(
      idsWhere((endpoint) => endpoint.type === 'cloud' && Date.parse(endpoint.created_at) >= at),
    );
    expect(both.length).toBeGreaterThan(0);
  });

  it('takes 100 ids in one list, paged with the filter carried in next_page_uri', async () => {
    const chosen = all.filter((_, index) => index % 4 !== 1).slice(0, 100);
    expect(chosen).toHaveLength(100);
    const filter = `obj.id in [${chosen.map((endpoint) => quote(endpoint.id)).join(', ')}]`;
    const pages = await walkEndpoints(filterUrl(filter, '&limit=30'), KEY);
    expect(pages.map((page) => page.endpoints.length)).toEqual([30, 30, 30, 10]);
    expect(pages.flatMap((page) => page.endpoints)).toEqual(chosen);
    const lastOfFirst = pages[0]?.endpoints.at(-1)?.id;
    expect(pages[0]?.next_page_uri).toBe(
      `${sandbox.url}/endpoints?before_id=${lastOfFirst}&limit=30&filter=${encodeURIComponent(filter)}`,
    );
    expect(pages.at(-1)?.next_page_uri).toBeNull();
  });

  it('filters before paging: a filtered page costs one call', async () => {
    sandbox.resetCalls();
    const page = (await call(filterUrl('obj.type == "cloud"', '&limit=5'), { key: KEY }))
      .json as EndpointListBody;
    expect(page.endpoints.map((endpoint) => endpoint.id)).toEqual(
      idsWhere((e) => e.type === 'cloud').slice(0, 5),
    );
    expect(sandbox.calls('listEndpoints', KEY)).toBe(1);
  });

  it('reads quoted values as data: escapes work and injection attempts match nothing', async () => {
    for (const endpoint of all.filter((_, index) => index % 17 === 0)) {
      expect(await served(`obj.url == ${quote(endpoint.url)}`)).toEqual(
        idsWhere((other) => other.url === endpoint.url),
      );
    }
    const tricky = idsWhere((endpoint) => endpoint.description === TRICKY);
    expect(tricky).toHaveLength(1);
    expect(await served(`obj.description == ${quote(TRICKY)}`)).toEqual(tricky);
    for (const attempt of [
      'https://a" || true || "x',
      '" || true || "',
      '\\" || true || \\"',
      '") || (true',
      'x\u0000y',
      '\\',
    ]) {
      const answer = await call(filterUrl(`obj.url == ${quote(attempt)}`), { key: KEY });
      expect(answer.status).toBe(200);
      expect((answer.json as EndpointListBody).endpoints).toEqual([]);
    }
    // The brief's exact text: escaped quotes inside one string literal.
    expect(await served('obj.url == "https://a\\" || true || \\"x"')).toEqual([]);
  });

  it('compares unknown fields as absent, and treats an empty filter as none', async () => {
    expect(await served('obj.no_such_field == "x"')).toEqual([]);
    expect(await served('obj.no_such_field != "x"')).toHaveLength(all.length);
    expect(await served('obj.no_such_field == null')).toHaveLength(all.length);
    expect(await served('obj.traffic_policy == null')).toEqual(
      idsWhere((endpoint) => endpoint.type === 'agent'),
    );
    expect(await served('   ')).toHaveLength(all.length);
  });

  it('keeps the deprecated id and url parameters, and-ed with the filter', async () => {
    const [a, b, c] = all;
    const answer = await call(`${sandbox.url}/endpoints?id=${a?.id}&id=${c?.id}&id=${b?.id}`, { key: KEY });
    expect((answer.json as EndpointListBody).endpoints.map((endpoint) => endpoint.id)).toEqual([
      a?.id,
      b?.id,
      c?.id,
    ]);
    const byUrl = await call(
      `${filterUrl('obj.type == "agent"')}&url=${encodeURIComponent(a?.url ?? '')}&url=${encodeURIComponent(clouds[0]?.url ?? '')}`,
      { key: KEY },
    );
    expect((byUrl.json as EndpointListBody).endpoints.map((endpoint) => endpoint.id)).toEqual(
      a?.type === 'agent' ? [a.id] : [],
    );
  });
});

describe('filter: refusals', () => {
  it.each([
    ['obj.type ==', 'Invalid CEL query: unexpected end of the filter at column 12.'],
    ['obj.type = "agent"', 'Invalid CEL query: unexpected character "=" at column 10.'],
    [
      '(obj.type == "agent"',
      'Invalid CEL query: expected ")" to close the "(" of column 1 at column 21 but found end of the filter.',
    ],
    ['obj.type == "agent', 'Invalid CEL query: unterminated string starting at column 13.'],
    ['obj.type == "a\\qb"', 'Invalid CEL query: unknown escape \\q at column 15.'],
    [
      'type == "agent"',
      'Invalid CEL query: unknown name "type" at column 1; fields are read as obj.<field>.',
    ],
    ['obj.type == "agent" &&', 'Invalid CEL query: unexpected end of the filter at column 23.'],
    ['obj.type == "agent" "cloud"', 'Invalid CEL query: unexpected string "cloud" at column 21.'],
    ['"agent"', 'Invalid CEL query: expected a condition at column 1 but found a string.'],
    ['obj.id in "ep_x"', 'Invalid CEL query: "in" at column 8 needs a list such as ["a", "b"].'],
    [
      'obj.type == "a" == "b"',
      'Invalid CEL query: comparisons cannot be chained (column 17); join them with && or ||.',
    ],
    ['size(obj.url) > 3', 'Invalid CEL query: unknown function "size" at column 1.'],
    [
      'obj.created_at > timestamp("yesterday")',
      'Invalid CEL query: timestamp() at column 18 needs an RFC 3339 date such as "2026-01-01T00:00:00Z", got "yesterday".',
    ],
    [
      `${'('.repeat(80)}true${')'.repeat(80)}`,
      'Invalid CEL query: the filter nests too deeply at column 65.',
    ],
    [
      'obj.bindings == "public"',
      'Invalid CEL query: obj.bindings at column 1 is a list; list-valued fields cannot be filtered.',
    ],
    [
      '"public" in obj.bindings',
      'Invalid CEL query: obj.bindings at column 13 is a list; list-valued fields cannot be filtered.',
    ],
    [
      'obj.type == "cloud" && !(obj.bindings == "internal")',
      'Invalid CEL query: obj.bindings at column 26 is a list; list-valued fields cannot be filtered.',
    ],
  ])('%s → 400 ERR_NGROK_250', async (filter, msg) => {
    const answer = await call(filterUrl(filter), { key: KEY });
    expectApiError(answer, 400, 'ERR_NGROK_250');
    expect((answer.json as { msg: string }).msg).toBe(msg);
  });

  it('refuses a repeated filter, and a bad filter even on an empty account', async () => {
    expectApiError(await call(`${filterUrl('true')}&filter=true`, { key: KEY }), 400, 'ERR_NGROK_232');
    const empty = await startSandbox({ accounts: { e: {} } });
    try {
      expectApiError(await call(`${empty.url}/endpoints?filter=obj.`, { key: 'e' }), 400, 'ERR_NGROK_250');
    } finally {
      await empty.close();
    }
  });
});
