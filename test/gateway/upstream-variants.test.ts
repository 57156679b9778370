// Upstreams that answer unlike the stand-in, as the contract allows: other plausible answers, pages
// shorter than asked, and a base URL with a path. Each bare upstream here has a gateway of its own.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, transportOptions } from '../../src/app';
import { defaultConfig, loadConfig } from '../../src/config';
import { makeTunnels, newId } from '../../src/sandbox';
import { UpstreamTransport } from '../../src/upstream';
import { KEY, listen } from '../support/stack';

/** A gateway in front of a bare upstream: where to post GraphQL, and a close for both servers. */
async function gatewayOver(server: Server, pathAfterUrl = '') {
  const upstream = await listen(server);
  const gateway = createGateway(
    loadConfig({
      NODE_ENV: 'test',
      NGROK_API_URL: `${upstream}${pathAfterUrl}`,
      UPSTREAM_RATE_LIMIT_PER_MIN: '0',
    }),
  );
  const front = createServer(gateway.yoga);
  const url = `${await listen(front)}/graphql`;
  const post = async (body: unknown): Promise<unknown> => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(body),
    });
    return r.json();
  };
  const close = async () => {
    front.closeAllConnections();
    server.closeAllConnections();
    await new Promise((r) => front.close(r));
    await new Promise((r) => server.close(r));
    await gateway.close();
  };
  return { post, close };
}

describe('an upstream that answers the other plausible ways', () => {
  // A bare HTTP server standing for upstream behaviours the stand-in does not take: a 200 with no
  // backend for a route without module, and a single Ref for backends (as the spec types it).
  const edgeId = newId('edghts');
  const routeId = newId('edghtsrt');
  const tunnelId = newId('tn');
  const quicId = newId('tn');
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
    } else if (req.url === `/tunnels/${quicId}`) {
      res.end(
        JSON.stringify({
          id: quicId,
          public_url: 'quic://1.quic.ngrok.io:443',
          started_at: '2025-09-04T10:11:22Z',
          proto: 'quic',
          region: 'eu',
          tunnel_session: { id: 'ts_1', uri: 'https://api.ngrok.com/tunnel_sessions/ts_1' },
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
    const over = await gatewayOver(server, '/');
    gql = (query) => over.post({ query });
    close = over.close;
  });
  afterAll(() => close());

  it('a 200 without backend reads as no module (null)', async () => {
    expect(
      await gql(`{ httpsEdgeRouteBackend(edgeId: "${edgeId}", routeId: "${routeId}") { enabled } }`),
    ).toEqual({
      data: { httpsEdgeRouteBackend: null },
      extensions: { upstreamCalls: { predicted: 1, made: 1 } },
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
      extensions: { upstreamCalls: { predicted: 1, made: 1 } },
    });
  });

  it('a protocol the schema does not know reads as null, without an error', async () => {
    expect(await gql(`{ tunnel(id: "${quicId}") { id proto publicUrl labels { name } } }`)).toEqual({
      data: { tunnel: { id: quicId, proto: null, publicUrl: 'quic://1.quic.ngrok.io:443', labels: null } },
      extensions: { upstreamCalls: { predicted: 1, made: 1 } },
    });
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
  let post: (body: unknown) => Promise<unknown>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ post, close } = await gatewayOver(server));
  });
  afterAll(() => close());

  const page = async (first: number, after?: string) => {
    const body = (await post({
      query:
        'query($first: Int, $after: String) { tunnels(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }',
      variables: { first, after },
    })) as {
      data: { tunnels: { nodes: { id: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } };
    };
    return body.data.tunnels;
  };

  it('passes short upstream pages on, one call each, and walks the whole list once', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      listCalls.length = 0;
      const result = await page(10, after);
      // One call a page: the upstream's 7 items (a page costs what the planner predicts).
      expect(listCalls).toHaveLength(1);
      expect(result.nodes).toHaveLength(Math.min(7, all.length - seen.length));
      seen.push(...result.nodes.map((n) => n.id));
      // Short with a next_page_uri: there may be more, and there is until the end.
      expect(result.pageInfo.hasNextPage).toBe(result.nodes.length > 0);
      if (!result.pageInfo.hasNextPage) break;
      after = result.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.map((t) => t.id));
  });

  it('a non-null next_page_uri that leads to an empty page: the empty page says there is no next', async () => {
    listCalls.length = 0;
    const result = await page(3, undefined);
    expect(result.nodes).toHaveLength(3);
    expect(result.pageInfo.hasNextPage).toBe(true);
    expect(listCalls).toHaveLength(1);
    // The last 2 tunnels: the upstream still hands out a next_page_uri, which leads to an empty page.
    const tail = await page(5, Buffer.from(`tunnel:${all[20]?.id}`).toString('base64url'));
    expect(tail.nodes.map((n) => n.id)).toEqual([all[21]?.id, all[22]?.id]);
    expect(tail.pageInfo.hasNextPage).toBe(true);
    const empty = await page(5, tail.pageInfo.endCursor);
    expect(empty.nodes).toEqual([]);
    expect(empty.pageInfo.hasNextPage).toBe(false);
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
