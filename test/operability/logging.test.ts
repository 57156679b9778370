// Structured logs: one JSON line per request with its id, operation, status, duration, upstream
// calls and outcome; secrets never written; pretty output only in development on a terminal.
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMaskError } from '../../src/gateway/execution';
import { createRequestLog, maskLoggerOf, yogaLoggerOf } from '../../src/gateway/observability';
import { createLogger } from '../../src/log';
import { makeTunnels } from '../../src/sandbox';
import { KEY, listen, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(6, { seed: 61 });
const id = (i: number) => tunnels[i]?.id ?? '';
const ONE = 'query OneTunnel($id: ID!) { tunnel(id: $id) { id } }';
const MANY = 'query Many($ids: [ID!]!) { nodes(ids: $ids) { id } }';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A request's upstream tally in its log line: calls made, and as many predicted as started. */
const tally = (calls: number, made: number) => ({
  calls,
  coalesced: 0,
  cached: 0,
  retries: 0,
  predicted: made,
  made,
});

describe('the request log', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } }, env: { UPSTREAM_RETRIES: '1' } });
  });
  afterAll(() => stack.close());
  afterEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.resetCalls();
  });
  const requestLine = (reqId: string) => {
    const found = stack.lines().filter((l) => l.msg === 'request' && l.reqId === reqId);
    expect(found).toHaveLength(1);
    return found[0] ?? {};
  };

  it('writes one line per operation: request id, operation, status, duration, upstream calls, outcome', async () => {
    const response = await stack.post(
      { query: ONE, variables: { id: id(0) } },
      { 'x-request-id': 'trace-42.a:b' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('trace-42.a:b');
    const line = requestLine('trace-42.a:b');
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'ngrok-graphql-gateway',
      reqId: 'trace-42.a:b',
      method: 'POST',
      path: '/graphql',
      operationName: 'OneTunnel',
      operationType: 'query',
      status: 200,
      durationMs: expect.any(Number),
      upstream: tally(1, 1),
      outcome: 'ok',
      msg: 'request',
    });
    expect(line.durationMs).toBeGreaterThan(0);
  });

  it('makes up a request id when none, or one that is not plain, is sent, and echoes it', async () => {
    for (const sent of [undefined, 'has spaces', 'x'.repeat(129), '{"forged":1}']) {
      const response = await stack.post(
        { query: ONE, variables: { id: id(0) } },
        sent === undefined ? {} : { 'x-request-id': sent },
      );
      const echoed = response.headers.get('x-request-id') ?? '';
      expect(echoed).toMatch(UUID);
      expect(requestLine(echoed).operationName).toBe('OneTunnel');
    }
  });

  it('counts each request’s own upstream calls while requests run at the same time', async () => {
    stack.sandbox.setLatency('getTunnel', 40);
    await Promise.all([
      stack.post({ query: MANY, variables: { ids: [id(1), id(2), id(3)] } }, { 'x-request-id': 'many' }),
      stack.post({ query: ONE, variables: { id: id(4) } }, { 'x-request-id': 'one' }),
      stack.post({ query: ONE, variables: { id: id(5) } }, { 'x-request-id': 'same-1' }),
      stack.post({ query: ONE, variables: { id: id(5) } }, { 'x-request-id': 'same-2' }),
    ]);
    expect(stack.sandbox.calls('getTunnel')).toBe(5);
    expect(requestLine('many').upstream).toEqual(tally(3, 3));
    expect(requestLine('one').upstream).toEqual(tally(1, 1));
    // Two identical reads in flight at once: one call, the other joins it.
    const same = [requestLine('same-1').upstream, requestLine('same-2').upstream];
    expect(same).toContainEqual(tally(1, 1));
    // The one that joined a call in flight made none.
    expect(same).toContainEqual({ ...tally(0, 0), coalesced: 1, predicted: 1 });
  });

  it('counts retries as calls, and an upstream failure is an error outcome at warn level', async () => {
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 503 });
    await stack.post({ query: ONE, variables: { id: id(0) } }, { 'x-request-id': 'retried' });
    expect(requestLine('retried')).toMatchObject({
      level: 30,
      upstream: { calls: 2, coalesced: 0, cached: 0, retries: 1, predicted: 1, made: 1 },
      outcome: 'ok',
    });
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await stack.post({ query: ONE, variables: { id: id(0) } }, { 'x-request-id': 'failed' });
    expect(stack.sandbox.calls('getTunnel')).toBe(4);
    expect(requestLine('failed')).toMatchObject({
      level: 40,
      status: 200,
      upstream: { calls: 2, coalesced: 0, cached: 0, retries: 1, predicted: 1, made: 1 },
      outcome: 'error',
      errors: ['UPSTREAM_UNAVAILABLE'],
    });
  });

  it('a refused request is an error outcome with its code and no upstream call', async () => {
    const response = await stack.post({ query: ONE, variables: { id: id(0) } }, { authorization: '' });
    expect(response.status).toBe(401);
    const reqId = response.headers.get('x-request-id') ?? '';
    expect(requestLine(reqId)).toMatchObject({
      level: 30,
      status: 401,
      // Predicted as if it could run; it made nothing.
      upstream: { calls: 0, coalesced: 0, cached: 0, retries: 0, predicted: 1, made: 0 },
      outcome: 'error',
      errors: ['UNAUTHENTICATED'],
    });
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('anonymous operations and parse errors are logged with a null operation name', async () => {
    const response = await stack.post(
      { query: '{ tunnel(id: ' },
      { 'x-request-id': 'broken', accept: 'application/graphql-response+json' },
    );
    expect(response.status).toBe(400);
    expect(requestLine('broken')).toMatchObject({
      operationName: null,
      operationType: null,
      status: 400,
      outcome: 'error',
      errors: ['GRAPHQL_PARSE_FAILED'],
    });
  });

  it('a batch is one line naming each of its operations, with the calls of all of them', async () => {
    const response = await stack.post(
      [
        { query: ONE, variables: { id: id(0) } },
        { query: 'query Page { tunnels(first: 1) { nodes { id } } }' },
      ],
      { 'x-request-id': 'batch' },
    );
    expect(response.status).toBe(200);
    expect(requestLine('batch')).toMatchObject({
      operationName: 'OneTunnel,Page',
      operationType: 'query,query',
      upstream: tally(2, 2),
      outcome: 'ok',
    });
  });

  it('probes, scrapes and the GraphiQL page are logged at debug level only', async () => {
    for (const path of ['/health', '/metrics']) {
      const reqId = `probe-${path.slice(1)}`;
      const response = await fetch(`${stack.base}${path}`, { headers: { 'x-request-id': reqId } });
      expect(response.status).toBe(200);
      expect(requestLine(reqId)).toMatchObject({ level: 20, path, outcome: 'ok' });
    }
  });

  it('never writes the credential, the variables or the text of an error', async () => {
    const secretId = 'tn_VariableValueNeverLogged1';
    await stack.post({ query: ONE, variables: { id: secretId } });
    await stack.post({ query: '{ tunnel(id: "not-an-id") { id } }' });
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 500, errorCode: 'ERR_NGROK_500' });
    await stack.post({ query: ONE, variables: { id: id(0) } });
    const text = stack.text();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('VariableValueNeverLogged');
    expect(text).not.toContain('not-an-id');
    expect(text).not.toMatch(/ERR_NGROK|\bat .*\.[jt]s:\d+/);
    expect(stack.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});

describe('an unexpected error in the log', () => {
  it('names the request it failed (no async context needed), by name and path only', async () => {
    const chunks: string[] = [];
    const logger = createLogger(
      { log: { level: 'debug', format: 'json' }, server: { nodeEnv: 'production' } },
      new Writable({
        write(chunk, _encoding, done) {
          chunks.push(String(chunk));
          done();
        },
      }),
    );
    const requestLog = createRequestLog(logger);
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: 'type Query { broken: String fine: String }',
        resolvers: {
          Query: {
            // After a tick, as an upstream call would fail: the error leaves execution asynchronously.
            broken: async () => {
              await new Promise((resolve) => setTimeout(resolve, 5));
              throw new TypeError('secret detail');
            },
            fine: () => 'ok',
          },
        },
      }),
      logging: yogaLoggerOf(logger),
      maskedErrors: { maskError: createMaskError(maskLoggerOf(logger)) },
      plugins: [requestLog.plugin],
    });
    const server = createServer(yoga);
    const base = await listen(server);
    try {
      const ask = (reqId: string) =>
        fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': reqId },
          body: JSON.stringify({ query: '{ broken fine }' }),
        }).then((r) => r.json());
      // Two at once: each line must name its own request.
      const answers = await Promise.all([ask('first-req'), ask('second-req')]);
      for (const answer of answers)
        expect(answer).toMatchObject({ errors: [{ message: 'Unexpected error.', path: ['broken'] }] });
      const lines = chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const masked = lines.filter((l) => l.msg === 'unexpected error while executing an operation');
      expect(masked.map((l) => l.reqId).sort()).toEqual(['first-req', 'second-req']);
      for (const line of masked) expect(line.err).toEqual({ name: 'TypeError', path: ['broken'] });
      expect(chunks.join('')).not.toContain('secret detail');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
