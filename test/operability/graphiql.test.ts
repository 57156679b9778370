// GraphiQL opens with the example operations as tabs. On the embedded stand-in (what `npm start`
// serves with no upstream configured) their variables hold real demo ids and no header is needed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { exampleIdsFrom, readExampleOperations } from '../../src/gateway/graphiql';
import { start } from '../../src/main';
import { demoData } from '../../src/sandbox';
import { type Stack, startStack } from '../support/stack';

interface Tab {
  query: string;
  variables: string;
  headers?: string;
}

/** The options yoga renders GraphiQL with, read back from the page. */
async function graphiqlPage(url: string): Promise<{ status: number; options?: { defaultTabs: Tab[] } }> {
  const response = await fetch(url, { headers: { accept: 'text/html' } });
  const html = await response.text();
  const marker = 'renderYogaGraphiQL(root,';
  const at = html.indexOf(marker);
  if (at === -1) return { status: response.status };
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const json = html.slice(at + marker.length, html.indexOf(')})</script>', at));
  return { status: response.status, options: JSON.parse(json) };
}

const operations = readExampleOperations();

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
    expect(tabs.map((t) => /^(?:# .*\n)*(?:query|mutation) (\w+)/.exec(t.query)?.[1])).toEqual([
      'TunnelsPage',
      'OneTunnel',
      'BackendModule',
      'ReplaceBackend',
      'DeleteBackend',
    ]);
    expect(tabs.every((t) => t.headers === undefined)).toBe(true);
    const ids = exampleIdsFrom(demoData());
    const route = { edgeId: ids?.edgeId, routeId: ids?.routeId };
    expect(tabs.map((t) => JSON.parse(t.variables))).toEqual([
      { first: 5 },
      { id: ids?.tunnelId },
      route,
      { ...route, backendId: ids?.backendId, enabled: true },
      route,
    ]);
  });

  it('every tab runs as it opens, without a credential, and does what it says', async () => {
    const tabs = (await graphiqlPage(running.url)).options?.defaultTabs ?? [];
    const results: Record<string, unknown>[] = [];
    for (const tab of tabs) {
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: tab.query, variables: JSON.parse(tab.variables) }),
      });
      const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
      expect(body.errors).toBeUndefined();
      results.push(body.data ?? {});
    }
    const ids = exampleIdsFrom(demoData());
    const [page, one, module, replaced, deleted] = results as Record<string, Record<string, unknown>>[];
    expect(page?.tunnels?.edges).toHaveLength(5);
    expect(one?.tunnel?.id).toBe(ids?.tunnelId);
    expect(module?.httpsEdgeRouteBackend).toMatchObject({ edgeId: ids?.edgeId, routeId: ids?.routeId });
    expect(replaced?.replaceHttpsEdgeRouteBackend).toMatchObject({
      __typename: 'ReplaceHttpsEdgeRouteBackendPayload',
      backendModule: { enabled: true, backend: { id: ids?.backendId } },
    });
    expect(deleted?.deleteHttpsEdgeRouteBackend).toEqual({
      __typename: 'DeleteHttpsEdgeRouteBackendPayload',
      edgeId: ids?.edgeId,
      routeId: ids?.routeId,
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

  it('in pass-through mode the tabs hold placeholders and the Authorization header to fill in', async () => {
    const tabs = (await graphiqlPage(passThrough.url)).options?.defaultTabs ?? [];
    expect(tabs).toHaveLength(5);
    for (const tab of tabs) {
      expect(JSON.parse(tab.headers ?? '{}')).toEqual({ Authorization: 'Bearer <your ngrok API key>' });
    }
    expect(JSON.parse(tabs[1]?.variables ?? '{}')).toEqual({ id: 'tn_…' });
  });

  it('is not served in production', async () => {
    const page = await graphiqlPage(production.url);
    expect(page.options).toBeUndefined();
    expect(page.status).not.toBe(200);
  });
});
