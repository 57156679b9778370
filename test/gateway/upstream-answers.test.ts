// How upstream answers, good and bad, become GraphQL answers.
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, transportOptions } from '../../src/app';
import { defaultConfig, loadConfig } from '../../src/config';
import { makeTunnels, newId } from '../../src/sandbox';
import { UpstreamTransport } from '../../src/upstream';
import { parseBackendModule } from '../../src/upstream/api/backend-module-json';
import { parseTunnel } from '../../src/upstream/api/tunnel-json';
import { dataOf, KEY, listen, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(5, { seed: 21 });
const id = (i: number) => tunnels[i]?.id ?? '';

describe('upstream errors map to codes with extensions.upstream', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());
  afterEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.resetCalls();
  });

  it('a 500 is UPSTREAM_UNAVAILABLE with status, error code and operation id, and no upstream text', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 500, errorCode: 'ERR_NGROK_500' });
    const { body } = await stack.gql(`{ tunnel(id: "${id(0)}") { id } }`);
    expect(body.data).toEqual({ tunnel: null });
    const error = body.errors?.[0];
    expect(error?.path).toEqual(['tunnel']);
    expect(error?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error?.extensions?.upstream).toMatchObject({ status: 500, errorCode: 'ERR_NGROK_500' });
    expect(error?.extensions?.upstream).toMatchObject({
      operationId: expect.stringMatching(/^op_[A-Za-z0-9]+$/),
    });
    expect(error?.message).toBe('The ngrok API is unavailable.');
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts/);
  });

  it('partial failure: the failed field is null with its error, the rest of the data comes back', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 500 });
    const { body } = await stack.gql(`{ a: tunnel(id: "${id(0)}") { id } b: tunnel(id: "${id(1)}") { id } }`);
    const data = body.data as Record<string, { id: string } | null>;
    const failed = Object.entries(data).filter(([, v]) => v === null);
    expect(failed).toHaveLength(1);
    expect(Object.values(data).filter((v) => v !== null)).toHaveLength(1);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.path).toEqual([failed[0]?.[0]]);
  });

  it('nodes(ids): one failed id is null with its error, the others resolve', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'pass' }, { kind: 'status', status: 500 });
    const { body } = await stack.gql(`{ nodes(ids: ["${id(0)}", "${id(1)}"]) { id } }`);
    const nodes = body.data?.nodes as ({ id: string } | null)[];
    expect(nodes.filter((n) => n === null)).toHaveLength(1);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  for (const kind of ['malformedJson', 'truncatedJson', 'wrongContentType', 'missingField'] as const) {
    it(`${kind} from the upstream is UPSTREAM_BAD_RESPONSE, and the next request is served`, async () => {
      stack.sandbox.inject('listTunnels', { kind });
      const first = await stack.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(first.body.data).toBeNull();
      expect(first.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_BAD_RESPONSE');
      const next = await stack.gql('{ tunnels(first: 2) { nodes { id } } }');
      expect(dataOf<{ nodes: unknown[] }>(next.body, 'tunnels').nodes).toHaveLength(2);
    });
  }

  it('an account without edges (ERR_NGROK_7008) is FORBIDDEN with a clear message, for reads and writes', async () => {
    const edgeId = newId('edghts');
    const routeId = newId('edghtsrt');
    stack.sandbox.inject('getBackend', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_7008' });
    stack.sandbox.inject('replaceBackend', { kind: 'status', status: 400, errorCode: 'ERR_NGROK_7008' });
    const read = await stack.gql(
      `{ httpsEdgeRouteBackend(edgeId: "${edgeId}", routeId: "${routeId}") { enabled } }`,
    );
    const write = await stack.gql(
      `mutation { replaceHttpsEdgeRouteBackend(input: { edgeId: "${edgeId}", routeId: "${routeId}", backendId: "bkdtg_1" }) { __typename } }`,
    );
    for (const { body } of [read, write]) {
      expect(body.errors?.[0]?.message).toBe(
        'HTTPS edges are deprecated and not available for this account.',
      );
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: 'FORBIDDEN',
        upstream: { status: 400, errorCode: 'ERR_NGROK_7008' },
      });
    }
  });

  it('a missing required field of one tunnel is UPSTREAM_BAD_RESPONSE for that field only', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'missingField' });
    const { body } = await stack.gql(`{ tunnel(id: "${id(2)}") { id } tunnels(first: 1) { nodes { id } } }`);
    expect(body.data).toEqual({ tunnel: null, tunnels: { nodes: [{ id: id(0) }] } });
    expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_BAD_RESPONSE');
  });
});

describe('tolerant parsing of what the upstream sends', () => {
  const base = {
    id: 'tn_1',
    started_at: '2025-09-04T10:11:22Z',
    region: 'us',
    tunnel_session: { id: 'ts_1', uri: 'u' },
  };

  it('ignores unknown fields and accepts a single Ref or an array for backends', () => {
    expect(
      parseTunnel({ ...base, shiny_new_field: { x: 1 }, backends: { id: 'bkdtg_1', uri: 'u' } }).backends,
    ).toEqual([{ id: 'bkdtg_1', uri: 'u' }]);
    expect(
      parseTunnel({
        ...base,
        backends: [
          { id: 'bkdtg_1', uri: 'u' },
          { id: 'bkdtg_2', uri: 'v' },
        ],
      }).backends,
    ).toHaveLength(2);
    expect(parseTunnel({ ...base, metadata: null }).metadata).toBeUndefined();
  });

  it('reports a missing or mistyped required field as UPSTREAM_BAD_RESPONSE', () => {
    for (const broken of [
      { ...base, id: undefined },
      { ...base, region: 3 },
      { ...base, tunnel_session: 'ts_1' },
      [],
      null,
    ]) {
      expect(() => parseTunnel(broken)).toThrow(expect.objectContaining({ code: 'UPSTREAM_BAD_RESPONSE' }));
    }
    expect(() => parseBackendModule({ backend: null })).toThrow(
      expect.objectContaining({ code: 'UPSTREAM_BAD_RESPONSE' }),
    );
  });
});

describe('an upstream that answers the other plausible ways', () => {
  // A bare HTTP server standing for upstream behaviours the stand-in does not take: a 200 with no
  // backend for a route without module, and a single Ref for backends (as the spec types it).
  const edgeId = newId('edghts');
  const routeId = newId('edghtsrt');
  const tunnelId = newId('tn');
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.setHeader('ngrok-operation-id', 'op_1');
    if (req.url === `/edges/https/${edgeId}/routes/${routeId}/backend`) {
      res.end(JSON.stringify({ enabled: true, backend: null }));
    } else if (req.url === `/tunnels/${tunnelId}`) {
      res.end(
        JSON.stringify({
          id: tunnelId,
          started_at: '2025-09-04T10:11:22Z',
          region: 'eu',
          forwards_to: 'localhost:80',
          tunnel_session: { id: 'ts_1', uri: 'https://api.ngrok.com/tunnel_sessions/ts_1' },
          labels: { zeta: '1', alpha: '2' },
          backends: { id: 'bkdtg_1', uri: 'https://api.ngrok.com/backends/tunnel_group/bkdtg_1' },
          future_field: [1, 2, 3],
        }),
      );
    } else {
      res.statusCode = 404;
      res.end(
        JSON.stringify({ status_code: 404, msg: 'Resource not found', details: { operation_id: 'op_2' } }),
      );
    }
  });
  let gql: (query: string) => Promise<unknown>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const url = await listen(server);
    const gateway = createGateway(
      loadConfig({ NODE_ENV: 'test', NGROK_API_URL: `${url}/`, UPSTREAM_RATE_LIMIT_PER_MIN: '0' }),
    );
    const front = createServer(gateway.yoga);
    const frontUrl = await listen(front);
    gql = async (query) => {
      const r = await fetch(`${frontUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ query }),
      });
      return r.json();
    };
    close = async () => {
      front.closeAllConnections();
      server.closeAllConnections();
      await new Promise((r) => front.close(r));
      await new Promise((r) => server.close(r));
      await gateway.close();
    };
  });
  afterAll(() => close());

  it('a 200 without backend reads as no module (null)', async () => {
    expect(
      await gql(`{ httpsEdgeRouteBackend(edgeId: "${edgeId}", routeId: "${routeId}") { enabled } }`),
    ).toEqual({
      data: { httpsEdgeRouteBackend: null },
    });
  });

  it('a single Ref becomes a one-item list; labels sorted; unknown fields ignored', async () => {
    expect(
      await gql(`{ tunnel(id: "${tunnelId}") { backends { id } labels { name value } proto publicUrl } }`),
    ).toEqual({
      data: {
        tunnel: {
          backends: [{ id: 'bkdtg_1' }],
          labels: [
            { name: 'alpha', value: '2' },
            { name: 'zeta', value: '1' },
          ],
          proto: null,
          publicUrl: null,
        },
      },
    });
  });
});

describe('URL building', () => {
  it('encodes every path segment and keeps the base path', async () => {
    const transport = new UpstreamTransport({
      ...transportOptions(defaultConfig(), 'http://127.0.0.1:9/api/'),
      timeoutMs: 1000,
    });
    expect(transport.pathOf({ route: 'getTunnel', method: 'GET', segments: ['tunnels', '../x/?#é'] })).toBe(
      '/api/tunnels/..%2Fx%2F%3F%23%C3%A9',
    );
    expect(
      transport.pathOf({
        route: 'listTunnels',
        method: 'GET',
        segments: ['tunnels'],
        query: { limit: 5, before_id: 'a&b' },
      }),
    ).toBe('/api/tunnels?limit=5&before_id=a%26b');
    await transport.close();
  });
});

describe('paging against an upstream that pages loosely', () => {
  // A bare upstream that answers at most 7 tunnels a page whatever the limit, and a non-null
  // next_page_uri on its last page (which leads to an empty page): both allowed by the contract.
  const all = makeTunnels(23, { seed: 31 });
  const listCalls: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    listCalls.push(url.search);
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const before = url.searchParams.get('before_id');
    const older = before === null ? all : all.filter((t) => t.id < before);
    const page = older.slice(0, Math.min(limit, 7));
    const last = page.at(-1);
    res.end(
      JSON.stringify({
        tunnels: page,
        uri: 'http://x/tunnels',
        next_page_uri: last ? `http://x/tunnels?before_id=${last.id}&limit=${limit}` : null,
      }),
    );
  });
  let url: string;
  let gateway: ReturnType<typeof createGateway>;
  let front: ReturnType<typeof createServer>;

  beforeAll(async () => {
    const upstream = await listen(server);
    gateway = createGateway(
      loadConfig({ NODE_ENV: 'test', NGROK_API_URL: upstream, UPSTREAM_RATE_LIMIT_PER_MIN: '0' }),
    );
    front = createServer(gateway.yoga);
    url = `${await listen(front)}/graphql`;
  });
  afterAll(async () => {
    front.closeAllConnections();
    server.closeAllConnections();
    await new Promise((r) => front.close(r));
    await new Promise((r) => server.close(r));
    await gateway.close();
  });

  const page = async (first: number, after?: string) => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        query:
          'query($first: Int, $after: String) { tunnels(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }',
        variables: { first, after },
      }),
    });
    const body = (await r.json()) as {
      data: { tunnels: { nodes: { id: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } };
    };
    return body.data.tunnels;
  };

  it('fills a page from short upstream pages and walks the list once, hasNextPage exact', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      listCalls.length = 0;
      const result = await page(10, after);
      // Full pages of 10 although the upstream never sends more than 7 at once.
      expect(result.nodes).toHaveLength(Math.min(10, all.length - seen.length));
      seen.push(...result.nodes.map((n) => n.id));
      expect(result.pageInfo.hasNextPage).toBe(seen.length < all.length);
      if (!result.pageInfo.hasNextPage) break;
      after = result.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.map((t) => t.id));
  });

  it('a non-null next_page_uri that leads to an empty page is not a next page', async () => {
    listCalls.length = 0;
    const result = await page(3, undefined);
    expect(result.nodes).toHaveLength(3);
    expect(result.pageInfo.hasNextPage).toBe(true);
    // The last 2 tunnels: the upstream still hands out a next_page_uri; the gateway looks and finds nothing.
    const tail = await page(5, Buffer.from(`tunnel:${all[20]?.id}`).toString('base64url'));
    expect(tail.nodes.map((n) => n.id)).toEqual([all[21]?.id, all[22]?.id]);
    expect(tail.pageInfo.hasNextPage).toBe(false);
  });
});
