// Compression over real HTTP: answers come in the coding the client accepts (q-values honoured,
// brotli first among equals), decoded here with node:zlib to the exact bytes of the plain answer;
// small answers and event streams are never compressed; GraphiQL's page is sent from bytes kept
// once, with a strong ETag per coding, and a reload with If-None-Match costs a 304. undici's
// `request` is used because fetch would decode the body itself.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';

const LIST = JSON.stringify({
  query:
    '{ tunnels(first: 20) { edges { node { id publicUrl proto region startedAt forwardsTo metadata labels { name value } } } } }',
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

async function send(url: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const r = await request(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: r.statusCode, headers: r.headers, body: Buffer.from(await r.body.arrayBuffer()) };
}

const postList = (stack: Stack, acceptEncoding?: string) =>
  send(
    stack.url,
    {
      authorization: `Bearer ${KEY}`,
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
    },
    LIST,
  );

function decoded(raw: Raw): string {
  const coding = raw.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(raw.body).toString();
  if (coding === 'gzip') return gunzipSync(raw.body).toString();
  if (coding === undefined) return raw.body.toString();
  throw new Error(`unexpected content-encoding ${String(coding)}`);
}

describe('compressed answers', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: demoData() } });
  });
  afterAll(() => stack.close());

  it('a list of 20 comes in the coding the client accepts, decoding to the plain answer', async () => {
    const plain = await postList(stack);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString()).data.tunnels.edges).toHaveLength(20);
    expect(plain.body.length).toBeGreaterThan(1024);

    const cases: [string, string][] = [
      ['gzip, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0.8, br', 'br'],
    ];
    for (const [accept, coding] of cases) {
      const raw = await postList(stack, accept);
      expect(raw.headers['content-encoding'], accept).toBe(coding);
      expect(raw.headers.vary).toMatch(/Accept-Encoding/i);
      expect(raw.body.length).toBeLessThan(plain.body.length / 2);
      // Same data; only the request id differs between two answers, and it is a header.
      expect(decoded(raw)).toBe(plain.body.toString());
    }
    const refused = await postList(stack, 'identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers under COMPRESSION_MIN_BYTES are sent as they are', async () => {
    const raw = await send(
      stack.url,
      { authorization: `Bearer ${KEY}`, 'accept-encoding': 'gzip, br' },
      JSON.stringify({ query: '{ __typename }' }),
    );
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(raw.body.toString())).toEqual({
      data: { __typename: 'Query' },
      extensions: { upstreamCalls: { predicted: 0, made: 0 } },
    });
  });

  it('an event stream is never compressed: its first event arrives as text', async () => {
    const r = await request(stack.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'accept-encoding': 'gzip, br',
        authorization: `Bearer ${KEY}`,
      },
      body: JSON.stringify({
        query: 'subscription { tunnelEvents(includeCurrent: true) { kind tunnelId } }',
      }),
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    // Yoga marks its streams "none", so that proxies leave them alone too.
    expect(r.headers['content-encoding']).toBe('none');
    let text = '';
    for await (const chunk of r.body) {
      text += String(chunk);
      if (text.includes('"ONLINE"')) break;
    }
    r.body.destroy();
    expect(text).toMatch(/event: next\ndata: \{"data":\{"tunnelEvents":\{"kind":"ONLINE"/);
  });

  it('the metrics come gzipped to a scraper that accepts it', async () => {
    const raw = await send(`${stack.base}/metrics`, { 'accept-encoding': 'gzip' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(decoded(raw)).toContain('# TYPE gateway_upstream_requests_total counter');
  });

  it('a body over MAX_BODY_BYTES is still refused with 413', async () => {
    const raw = await send(
      stack.url,
      { authorization: `Bearer ${KEY}`, 'accept-encoding': 'gzip, br' },
      JSON.stringify({ query: `{ __typename }${' '.repeat(stack.config.limits.maxBodyBytes)}` }),
    );
    expect(raw.status).toBe(413);
    expect(JSON.parse(decoded(raw)).errors[0].extensions.code).toBe('REQUEST_ENTITY_TOO_LARGE');
  });
});

describe("GraphiQL's page", () => {
  let stack: Stack;
  let off: Stack;
  beforeAll(async () => {
    stack = await startStack();
    off = await startStack({ accounts: { [KEY]: demoData() }, env: { COMPRESSION: 'false' } });
  });
  afterAll(async () => {
    await stack.close();
    await off.close();
  });

  const page = (s: Stack, headers: Record<string, string> = {}) =>
    send(s.url, { accept: 'text/html', ...headers });

  it('is sent brotli, gzip or plain, each decoding to the same page with an ETag of its own', async () => {
    const plain = await page(stack);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    const html = plain.body.toString();
    expect(html).toContain('<!doctype html>');
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);

    const br = await page(stack, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await page(stack, { 'accept-encoding': 'gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(br)).toBe(html);
    expect(decoded(gzip)).toBe(html);
    // Megabytes saved on every first load.
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    const etags = [plain, br, gzip].map((r) => r.headers.etag);
    for (const etag of etags) expect(etag).toMatch(/^"[\w-]+"$/);
    expect(new Set(etags).size).toBe(3);
    // Kept, not recompressed: the same bytes again.
    const again = await page(stack, { 'accept-encoding': 'br' });
    expect(again.body.equals(br.body)).toBe(true);
  });

  it('a reload with If-None-Match gets a 304 with no body, in the request log too', async () => {
    const first = await page(stack, { 'accept-encoding': 'gzip, br' });
    const etag = String(first.headers.etag);
    const reload = await page(stack, { 'accept-encoding': 'gzip, br', 'if-none-match': etag });
    expect(reload.status).toBe(304);
    expect(reload.body.length).toBe(0);
    expect(reload.headers.etag).toBe(etag);
    expect(reload.headers['content-encoding']).toBeUndefined();
    // A weak form of the same tag matches too (If-None-Match compares weakly).
    const weak = await page(stack, { 'accept-encoding': 'gzip, br', 'if-none-match': `W/${etag}` });
    expect(weak.status).toBe(304);
    // Another coding is another representation: the br tag does not validate the gzip bytes.
    const other = await page(stack, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    const id = String(reload.headers['x-request-id']);
    const line = stack.lines().find((l) => l.reqId === id);
    expect(line).toMatchObject({ method: 'GET', path: '/graphql', status: 304 });
  });

  it('with COMPRESSION=false: the page and answers go plain, the page still with its ETag', async () => {
    const plain = await page(off, { 'accept-encoding': 'gzip, br' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const reload = await page(off, {
      'accept-encoding': 'gzip, br',
      'if-none-match': String(plain.headers.etag),
    });
    expect(reload.status).toBe(304);
    const list = await postList(off, 'gzip, br');
    expect(list.body.length).toBeGreaterThan(1024);
    expect(list.headers['content-encoding']).toBeUndefined();
  });
});
