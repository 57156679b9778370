// GraphiQL in a real headless Chromium (Debian's `chromium`, driven by puppeteer-core): the page
// renders with every request staying on loopback (its assets are served by the gateway, not a CDN),
// opens on the first example operation with its variables, and running it shows tunnels; the
// TunnelEvents tab subscribes over SSE and its events keep arriving in the result pane; in
// pass-through mode, with no key, the first load shows no error and has the schema.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { EXAMPLE_OPERATIONS, exampleIdsFrom, PLACEHOLDER_IDS } from '../../src/gateway/graphiql';
import { start } from '../../src/main';
import { demoData, startSandbox } from '../../src/sandbox';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
// On CI a missing browser is a failure (the test below), never a silent skip.
const skip = !present && !process.env.CI;
if (skip) {
  console.warn(
    `SKIPPED: GraphiQL browser test: ${CHROMIUM} is missing (install the Debian package \`chromium\`).`,
  );
}

const TIMEOUT = 120_000;
const standInIds = exampleIdsFrom(demoData()) ?? PLACEHOLDER_IDS;

/** Waits for a condition in the page, with a message naming it on timeout. */
async function waitInPage(page: Page, what: string, condition: () => boolean): Promise<void> {
  try {
    await page.waitForFunction(condition, { timeout: TIMEOUT / 2, polling: 200 });
  } catch {
    throw new Error(`GraphiQL: timed out waiting for ${what}`);
  }
}

describe.skipIf(skip)('GraphiQL in headless Chromium, offline', () => {
  let running: Awaited<ReturnType<typeof start>>;
  let browser: Browser | undefined;
  let profile: string;

  beforeAll(async () => {
    running = await start(loadConfig({ NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'silent' }), () => {});
    if (!present) return;
    profile = mkdtempSync(join(tmpdir(), 'graphiql-chromium-'));
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        // As if offline: no host name resolves, so a CDN request could not succeed by luck.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      ],
    });
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it(
    'renders from the gateway alone, opens on the first example and runs it',
    async () => {
      expect(present, `${CHROMIUM} is missing: install the Debian package \`chromium\``).toBe(true);
      if (!browser) throw new Error('no browser');
      const origin = new URL(running.url).origin;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const page = await browser.newPage();
      // Tall enough that the variables editor renders every line of the first tab's variables.
      await page.setViewport({ width: 1280, height: 1800 });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));

      await page.goto(running.url, { waitUntil: 'load', timeout: TIMEOUT / 2 });
      const first = EXAMPLE_OPERATIONS[0];
      if (!first) throw new Error('no example operation');
      await waitInPage(page, 'the editors', () =>
        Boolean(document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.includes('query')),
      );
      const tabs = await page.$$eval('.graphiql-tab', (nodes) =>
        nodes.map((n) => n.querySelector('.graphiql-tab-button')?.textContent?.trim()),
      );
      expect(tabs).toEqual(EXAMPLE_OPERATIONS.map((op) => op.name));
      // The active tab is the first example (not GraphiQL's welcome comment), with its variables.
      const queryText = await page.$eval('.graphiql-query-editor .view-lines', (n) => n.textContent ?? '');
      expect(queryText.replace(/\s+/g, '')).toContain(`query${first.name}(`);
      expect(queryText).not.toMatch(/Welcome to GraphiQL/);
      await waitInPage(page, 'the variables', () =>
        Boolean(document.querySelector('.graphiql-editor-tool .view-lines')?.textContent?.includes('first')),
      );
      const variablesText = await page.$eval('.graphiql-editor-tool .view-lines', (n) => n.textContent ?? '');
      expect(JSON.parse(variablesText.replace(/\u00a0/g, ' '))).toEqual(first.variables(standInIds));

      const answer = page.waitForResponse(
        (r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes(first.name),
        { timeout: TIMEOUT / 2 },
      );
      await page.click('.graphiql-execute-button');
      const response = await answer;
      expect(JSON.parse(response.request().postData() ?? '{}').variables).toEqual(
        first.variables(standInIds),
      );
      const body = (await response.json()) as { data?: { endpoints?: { nodes: { id: string }[] } } };
      // The first tab lists endpoints (the provider's current model), as the demo data has them.
      const listed = body.data?.endpoints?.nodes ?? [];
      expect(listed).toHaveLength(8);
      const firstId = listed[0]?.id ?? '';
      expect(firstId).toMatch(/^ep_/);
      await waitInPage(page, 'endpoints in the result pane', () =>
        Boolean(document.querySelector('.graphiql-response')?.textContent?.includes('"endpoints"')),
      );
      const shown = await page.$eval('.graphiql-response', (n) => n.textContent ?? '');
      expect(shown.replace(/\s+/g, '')).toContain(firstId);

      expect(requests.length).toBeGreaterThan(0);
      const offLoopback = requests.filter(
        (url) =>
          !url.startsWith(`${origin}/`) && !url.startsWith(`blob:${origin}/`) && !url.startsWith('data:'),
      );
      expect(offLoopback).toEqual([]);
    },
    TIMEOUT * 2,
  );

  it(
    'the TunnelEvents tab subscribes, and events arrive in the result pane as tunnels come and go',
    async () => {
      if (!browser) throw new Error('no browser');
      // A gateway of its own whose stand-in brings a demo tunnel online or offline every 3 s.
      const churning = await start(
        loadConfig({ NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'silent', STANDIN_CHURN: 'true' }),
        () => {},
      );
      const page = await browser.newPage();
      try {
        const loaded = await page.goto(churning.url, { waitUntil: 'load', timeout: TIMEOUT / 2 });
        // Brotli from the bytes kept once, with what a reload revalidates by (compression.test.ts: the 304).
        expect(loaded?.headers()).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'no-cache' });
        expect(loaded?.headers().etag).toMatch(/^"[\w-]+-br"$/);
        await waitInPage(page, 'the editors', () =>
          Boolean(
            document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.includes('query'),
          ),
        );
        // Clicked until its document is in the editor (a click while GraphiQL still renders is lost).
        await waitInPage(page, 'the TunnelEvents tab', () => {
          if (
            document
              .querySelector('.graphiql-query-editor .view-lines')
              ?.textContent?.includes('subscription')
          )
            return true;
          const tab = [...document.querySelectorAll<HTMLElement>('.graphiql-tab-button')].find(
            (b) => b.textContent?.trim() === 'TunnelEvents',
          );
          tab?.click();
          return false;
        });
        // GraphiQL subscribes with a GET whose query string carries the operation (GraphQL over SSE).
        const stream = page.waitForResponse(
          (r) => r.url().startsWith(`${churning.url}?`) && r.url().includes('TunnelEvents'),
          { timeout: TIMEOUT / 2 },
        );
        await page.click('.graphiql-execute-button');
        const response = await stream;
        expect(response.request().method()).toBe('GET');
        expect(response.headers()['content-type']).toMatch(/^text\/event-stream/);
        const sent = new URL(response.url()).searchParams;
        expect(JSON.parse(sent.get('variables') ?? '{}')).toEqual({ includeCurrent: true });
        await waitInPage(page, 'an event in the result pane', () =>
          /"kind":\s*"(?:ONLINE|OFFLINE)"/.test(
            document.querySelector('.graphiql-response')?.textContent ?? '',
          ),
        );
        const shown = async () =>
          (await page.$eval('.graphiql-response', (n) => n.textContent ?? '')).replace(/\s+/g, '');
        const first = await shown();
        expect(first).toMatch(/"tunnelEvents":\{"kind":"(?:ONLINE|OFFLINE)","tunnelId":"tn_/);
        // The stream stays open: the next change replaces what the pane shows.
        await page.waitForFunction(
          (before) =>
            (document.querySelector('.graphiql-response')?.textContent ?? '').replace(/\s+/g, '') !== before,
          { timeout: TIMEOUT / 2, polling: 200 },
          first,
        );
        expect(await shown()).toMatch(/"tunnelEvents":\{"kind":"(?:ONLINE|OFFLINE)","tunnelId":"tn_/);
      } finally {
        await page.close();
        await churning.close();
      }
    },
    TIMEOUT * 2,
  );

  it(
    'in pass-through mode, with no key, the first load has the schema and shows no error',
    async () => {
      if (!browser) throw new Error('no browser');
      const upstream = await startSandbox({ rateLimit: false });
      const passThrough = await start(
        loadConfig({
          NODE_ENV: 'development',
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          NGROK_API_URL: upstream.url,
        }),
        () => {},
      );
      const page = await browser.newPage();
      try {
        const introspection = page.waitForResponse(
          (r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes('__schema'),
          { timeout: TIMEOUT / 2 },
        );
        await page.goto(passThrough.url, { waitUntil: 'load', timeout: TIMEOUT / 2 });
        const answer = await introspection;
        // No Authorization header was sent (none malformed), and the schema came back.
        expect(answer.request().headers().authorization).toBeUndefined();
        expect(answer.status()).toBe(200);
        const body = (await answer.json()) as {
          data?: { __schema?: { queryType?: { name: string } } };
          errors?: unknown;
        };
        expect(body.errors).toBeUndefined();
        expect(body.data?.__schema?.queryType?.name).toBe('Query');
        await waitInPage(page, 'the editors', () =>
          Boolean(
            document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.includes('query'),
          ),
        );
        // The documentation explorer lists the schema's root types (clicked until it shows).
        await waitInPage(page, 'the documentation explorer', () => {
          if (document.querySelector('.graphiql-doc-explorer')?.textContent?.includes('Query')) return true;
          document.querySelector<HTMLElement>('button[aria-label="Show Documentation Explorer"]')?.click();
          return false;
        });
        const shown = await page.$eval('.graphiql-response', (n) => n.textContent ?? '');
        expect(shown).not.toMatch(/error|UNAUTHENTICATED/i);
      } finally {
        await page.close();
        await passThrough.close();
        await upstream.close();
      }
    },
    TIMEOUT * 2,
  );
});
