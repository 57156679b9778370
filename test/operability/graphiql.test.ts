// GraphiQL opens with the example operations as tabs. On the embedded stand-in (what `npm start`
// serves with no upstream configured) their variables hold real demo ids and no header is needed.
// The page carries its own assets (no CDN); graphiql-browser.test.ts runs it in Chromium, and
// test/gateway/readme.test.ts checks that the README's example table names these tabs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { EXAMPLE_OPERATIONS, exampleIdsFrom } from '../../src/gateway/graphiql';
import { start } from '../../src/main';
import { demoData } from '../../src/sandbox';
import { type Stack, startStack } from '../support/stack';

interface Tab {
  query: string;
  variables: string;
  headers?: string;
}

interface PageOptions {
  defaultTabs: Tab[];
  defaultQuery?: string;
  variables?: string;
}

/** The options the page renders GraphiQL with, read back from it, and the page itself. */
async function graphiqlPage(url: string): Promise<{ status: number; html: string; options?: PageOptions }> {
  const response = await fetch(url, { headers: { accept: 'text/html' } });
  const html = await response.text();
  const marker = "window.document.querySelector('#root'),";
  const at = html.indexOf(marker);
  if (at === -1) return { status: response.status, html };
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const line =
    html
      .slice(at + marker.length)
      .trimStart()
      .split('\n')[0] ?? '';
  return { status: response.status, html, options: JSON.parse(line.replace(/,$/, '')) };
}

const operations = EXAMPLE_OPERATIONS;

/** The first `next` event of a GraphQL over SSE answer; the stream is closed after it. */
async function firstEvent(response: Response): Promise<unknown> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw new Error('no body');
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended without an event: ${text}`);
      text += value;
      const data = /event: next\ndata: (.*)\n/.exec(text)?.[1];
      if (data !== undefined) return JSON.parse(data);
    }
  } finally {
    await reader.cancel();
  }
}

describe('GraphiQL on the embedded stand-in', () => {
  let running: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    running = await start(loadConfig({ NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'silent' }), () => {});
  });
  afterAll(() => running.close());

  it('opens with one tab per example operation, filled with ids of the demo data and no header', async () => {
    const page = await graphiqlPage(running.url);
    expect(page.status).toBe(200);
    const tabs = page.options?.defaultTabs ?? [];
    expect(tabs.map((t) => t.query)).toEqual(operations.map((o) => o.document));
    expect(tabs.map((t) => /^(?:# .*\n)*(?:query|mutation|subscription) (\w+)/.exec(t.query)?.[1])).toEqual([
      'Endpoints',
      'Agents',
      'CreateEndpoint',
      'TunnelsPage',
      'OneTunnel',
      'ByIds',
      'BackendModule',
      'ReplaceBackend',
      'DeleteBackend',
      'EdgeRoutes',
      'EndpointEvents',
      'AgentEvents',
      'TunnelEvents',
    ]);
    expect(tabs.every((t) => t.headers === undefined)).toBe(true);
    const ids = exampleIdsFrom(demoData());
    const route = { edgeId: ids?.edgeId, routeId: ids?.routeId };
    expect(tabs.map((t) => JSON.parse(t.variables))).toEqual([
      { first: 8, filter: { types: ['AGENT', 'CLOUD'] } },
      { first: 10 },
      { url: 'https://new-app.example.com', trafficPolicy: expect.stringContaining('on_http_request') },
      { first: 5 },
      { id: ids?.tunnelId },
      { id: ids?.agentTunnelId, ids: [ids?.tunnelId, ids?.endpointId] },
      route,
      { ...route, backendId: ids?.backendId, enabled: true },
      route,
      { id: ids?.edgeId },
      { includeCurrent: true },
      { includeCurrent: true },
      { includeCurrent: true },
    ]);
  });

  it('carries its own scripts and styles and opens on the first tab, its variables filled in', async () => {
    const page = await graphiqlPage(running.url);
    // No <script src> or <link href> at all: everything is inline, nothing comes from a CDN.
    expect(page.html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(page.html).not.toMatch(/<link[^>]*\shref=["'](?!data:)/i);
    expect(page.html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs/);
    const tabs = page.options?.defaultTabs ?? [];
    expect(page.options?.defaultQuery).toBe(tabs[0]?.query);
    expect(page.options?.variables).toBe(tabs[0]?.variables);
  });

  it('every tab runs as it opens, without a credential, and does what it says (edge writes refused, as by the real API)', async () => {
    const tabs = (await graphiqlPage(running.url)).options?.defaultTabs ?? [];
    const results: Record<string, unknown>[] = [];
    const refused: string[] = [];
    for (const tab of tabs) {
      const subscription = tab.query.includes('subscription ');
      const response = await fetch(running.url, {
        method: 'POST',
        // GraphiQL subscribes over GraphQL over SSE.
        headers: {
          'content-type': 'application/json',
          ...(subscription ? { accept: 'text/event-stream' } : {}),
        },
        body: JSON.stringify({ query: tab.query, variables: JSON.parse(tab.variables) }),
      });
      const body = (subscription ? await firstEvent(response) : await response.json()) as {
        data?: Record<string, unknown>;
        errors?: unknown;
      };
      const codes = ((body.errors ?? []) as { extensions?: { code?: string } }[]).map(
        (e) => e.extensions?.code,
      );
      if (codes.length > 0)
        refused.push(`${/(?:query|mutation|subscription) (\w+)/.exec(tab.query)?.[1]}: ${codes}`);
      results.push(body.data ?? {});
    }
    // The embedded stand-in refuses edge writes as the real API does (EDGES_WRITABLE=true for a demo).
    expect(refused).toEqual(['ReplaceBackend: FORBIDDEN', 'DeleteBackend: FORBIDDEN']);
    const ids = exampleIdsFrom(demoData());
    const [
      endpoints,
      agents,
      created,
      page,
      one,
      byIds,
      module,
      replaced,
      deleted,
      edge,
      ,
      agentEvent,
      event,
    ] = results as Record<string, Record<string, unknown>>[];
    expect(page?.tunnels?.edges).toHaveLength(5);
    expect(one?.tunnel?.id).toBe(ids?.tunnelId);
    expect(byIds).toEqual({
      node: { __typename: 'Tunnel', id: ids?.agentTunnelId, region: expect.any(String) },
      nodes: [
        { __typename: 'Tunnel', id: ids?.tunnelId },
        { __typename: 'Endpoint', id: ids?.endpointId },
      ],
    });
    expect(module?.httpsEdgeRouteBackend).toMatchObject({ edgeId: ids?.edgeId, routeId: ids?.routeId });
    expect(replaced).toEqual({});
    expect(deleted).toEqual({});
    expect(edge?.httpsEdge).toMatchObject({ id: ids?.edgeId });
    // Filtered upstream; the agent endpoints' tunnels joined through Ref.node.
    type Listed = { nodes: { type: string; tunnel: { node: unknown } | null }[] };
    const listed = (endpoints?.endpoints as Listed | undefined)?.nodes ?? [];
    expect(listed).toHaveLength(8);
    for (const e of listed) {
      expect(['AGENT', 'CLOUD']).toContain(e.type);
      if (e.type === 'AGENT') expect(e.tunnel?.node).toMatchObject({ id: expect.stringMatching(/^tn_/) });
    }
    // Online agents; each endpoint's agent joined through Ref.node.
    type Agents = { nodes: { id: string; tunnelSession: { node: { id: string } } | null }[] };
    expect((agents?.tunnelSessions as Agents | undefined)?.nodes).toHaveLength(10);
    const joined = (agents?.endpoints as Agents | undefined)?.nodes ?? [];
    expect(joined.filter((e) => e.tunnelSession?.node.id.startsWith('ts_')).length).toBeGreaterThan(0);
    expect(created?.createCloudEndpoint).toMatchObject({
      __typename: 'CreateCloudEndpointPayload',
      endpoint: { url: 'https://new-app.example.com', type: 'CLOUD' },
    });
    expect(event?.tunnelEvents).toMatchObject({ kind: 'ONLINE', tunnelId: expect.stringMatching(/^tn_/) });
    expect(agentEvent?.tunnelSessionEvents).toMatchObject({
      kind: 'ONLINE',
      tunnelSessionId: expect.stringMatching(/^ts_/),
    });
  });
});

describe('GraphiQL elsewhere', () => {
  let passThrough: Stack;
  let production: Stack;
  beforeAll(async () => {
    passThrough = await startStack();
    production = await startStack({ env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => {
    await passThrough.close();
    await production.close();
  });

  it('in pass-through mode the tabs hold placeholders and, as comments, how to add the Authorization header', async () => {
    const tabs = (await graphiqlPage(passThrough.url)).options?.defaultTabs ?? [];
    expect(tabs).toHaveLength(operations.length);
    for (const tab of tabs) {
      expect(tab.headers).toBe(
        [
          '{',
          '  // Runs need your ngrok API key: remove the two slashes below and put it after "Bearer ".',
          '  // "Authorization": "Bearer "',
          '}',
        ].join('\n'),
      );
      // Without the comments nothing is left to send: no malformed header before a key is added.
      expect(JSON.parse((tab.headers ?? '').replace(/^\s*\/\/.*$/gm, ''))).toEqual({});
    }
    const oneTunnel = tabs.find((t) => t.query.includes('query OneTunnel('));
    expect(JSON.parse(oneTunnel?.variables ?? '{}')).toEqual({ id: 'tn_…' });
  });

  it('is not served in production', async () => {
    const page = await graphiqlPage(production.url);
    expect(page.options).toBeUndefined();
    expect(page.status).not.toBe(200);
  });
});
