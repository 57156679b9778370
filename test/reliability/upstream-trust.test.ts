// What the upstream sends is bounded and checked before it reaches a client: body size, operation
// ids, resource ids and Retry-After.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { KEY, listen, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(3, { seed: 5 });
const t0 = tunnels[0];
const TUNNEL = 'query($id: ID!) { tunnel(id: $id) { id tunnelSession { id } } }';
const LIST = 'query($first: Int) { tunnels(first: $first) { nodes { id } } }';

describe('upstream bodies are read up to UPSTREAM_MAX_BODY_BYTES', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { UPSTREAM_MAX_BODY_BYTES: '65536', UPSTREAM_RETRIES: '0' },
    });
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.sandbox.clearFaults();
    h.sandbox.resetCalls();
  });

  // 2 GB each: were they read whole, the test would run out of time and the process of memory.
  for (const chunked of [true, false]) {
    it(`four concurrent 2 GB answers (${chunked ? 'chunked' : 'with Content-Length'}) are UPSTREAM_BAD_RESPONSE, and the next read works`, async () => {
      for (let i = 0; i < 4; i += 1) {
        h.sandbox.inject('listTunnels', { kind: 'largeBody', bytes: 2_000_000_000, chunked });
      }
      const answers = await Promise.all([1, 2, 3, 4].map((first) => h.gql(LIST, { first })));
      for (const { body } of answers) {
        expect(body.data).toBeNull();
        expect(body.errors?.[0]?.message).toBe('The ngrok API sent a response the gateway could not read.');
        expect(body.errors?.[0]?.extensions).toMatchObject({
          code: 'UPSTREAM_BAD_RESPONSE',
          upstream: { status: 200, errorCode: null },
        });
      }
      expect(h.sandbox.calls('listTunnels')).toBe(4);
      const next = await h.gql(LIST, { first: 2 });
      expect(next.body.data).toEqual({
        tunnels: { nodes: [{ id: tunnels[0]?.id }, { id: tunnels[1]?.id }] },
      });
    });
  }
});

/** A bare upstream whose every answer the test writes. */
async function bareUpstream(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const arrivals: number[] = [];
  const server: Server = createServer((req, res) => {
    arrivals.push(performance.now());
    answer(req, res);
  });
  const url = await listen(server);
  return {
    url,
    calls: () => arrivals.length,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('what the upstream sends is checked like client input', () => {
  let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  let upstream: Awaited<ReturnType<typeof bareUpstream>>;
  let h: Stack;
  beforeAll(async () => {
    upstream = await bareUpstream((req, res) => answer(req, res));
    h = await startStack({
      upstreamUrl: upstream.url,
      env: { UPSTREAM_RETRIES: '0', OPERATION_TIMEOUT_MS: '2000', BREAKER_FAILURE_THRESHOLD: '0' },
    });
  });
  afterAll(async () => {
    await h.close();
    await upstream.close();
  });

  it('an ngrok-operation-id header that is not op_… never reaches extensions', async () => {
    answer = (_req, res) =>
      json(res, 500, { status_code: 500, msg: 'x' }, { 'ngrok-operation-id': '<script>alert(1)</script>' });
    const { body } = await h.gql(TUNNEL, { id: t0?.id });
    expect(body.errors?.[0]?.extensions?.upstream).toEqual({
      status: 500,
      errorCode: null,
      operationId: null,
    });
  });

  const badTunnels: [string, Record<string, unknown>][] = [
    ['a tunnel id that is a path', { ...t0, id: '../../edges/https/edghts_x' }],
    ['a tunnel id of another kind', { ...t0, id: 'ep_32ELFeTyzStvllGupngXcSO5GUy' }],
    ['a tunnel session id that is not one', { ...t0, tunnel_session: { id: 'ts_a/b', uri: 'u' } }],
    ['a backend ref that is not a backend', { ...t0, backends: [{ id: 'tn_1', uri: 'u' }] }],
  ];
  for (const [name, tunnel] of badTunnels) {
    it(`${name} is UPSTREAM_BAD_RESPONSE`, async () => {
      answer = (_req, res) => json(res, 200, { tunnels: [tunnel], uri: 'u', next_page_uri: null });
      const { body } = await h.gql(LIST, { first: 1 });
      expect(body.data).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_BAD_RESPONSE');
      expect(JSON.stringify(body)).not.toContain('edges/https');
    });
  }

  it('a backend module whose backend id is not a backend id is UPSTREAM_BAD_RESPONSE', async () => {
    answer = (_req, res) => json(res, 200, { enabled: true, backend: { id: '../../x', uri: 'u' } });
    const { body } = await h.gql(
      '{ httpsEdgeRouteBackend(edgeId: "edghts_1", routeId: "edghtsrt_1") { backend { id } } }',
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(body.errors?.[0]?.message).toBe(
      'The ngrok API sent a response the gateway could not read (backend module.backend.id is not a well-formed id).',
    );
  });

  const retryAfters: [string, number][] = [
    ['1000000000', 60],
    ['9'.repeat(400), 60],
    ['Wed, 21 Oct 2099 07:28:00 GMT', 60],
  ];
  for (const [header, shown] of retryAfters) {
    it(`Retry-After: ${header.slice(0, 20)} reaches the client as retryAfter ${shown}`, async () => {
      answer = (_req, res) =>
        json(
          res,
          429,
          { error_code: 'ERR_NGROK_226', status_code: 429, msg: 'x' },
          { 'retry-after': header },
        );
      // A fresh key per case: the pause the 429 starts belongs to it.
      const { body } = await h.gql(
        TUNNEL,
        { id: t0?.id },
        { key: `key-${header.length}-${shown}-0123456789` },
      );
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: shown });
    });
  }

  for (const header of ['0', 'Thu, 01 Jan 2015 00:00:00 GMT']) {
    it(`Retry-After: ${header} pauses the credential for a second: the next calls are not sent`, async () => {
      answer = (_req, res) =>
        json(
          res,
          429,
          { error_code: 'ERR_NGROK_226', status_code: 429, msg: 'x' },
          { 'retry-after': header },
        );
      const key = `paused-${header.length}-0123456789`;
      const before = upstream.calls();
      const first = await h.gql(TUNNEL, { id: t0?.id }, { key });
      expect(first.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
      // OPERATION_TIMEOUT_MS 2000 outlasts a 1 s pause: these wait it out instead of going at once.
      const [second, third] = await Promise.all([
        h.gql(TUNNEL, { id: t0?.id }, { key }),
        h.gql(TUNNEL, { id: t0?.id }, { key }),
      ]);
      expect(second.body.errors?.[0]?.extensions?.retryAfter).toBe(1);
      expect(third.body.errors?.[0]?.extensions?.retryAfter).toBe(1);
      // Both waited the pause out (a lower bound only), then went as one coalesced read.
      expect(upstream.calls() - before).toBe(2);
      const [firstAt = 0, nextAt = 0] = upstream.arrivals.slice(before);
      expect(nextAt - firstAt).toBeGreaterThanOrEqual(900);
    });
  }
});
