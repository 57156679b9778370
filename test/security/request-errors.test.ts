// Request errors (the operation never runs) answer with the HTTP status yoga itself gives, under
// both media types, and every error carries extensions.code. None repeats the client's body.
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/schema';
import { KEY, type Stack, startStack } from '../support/stack';

const ACCEPTS = ['application/graphql-response+json', 'application/json'] as const;
const SECRET = 'secret-body-text';

interface Row {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The JSON body, or the raw text when it is a string. */
  readonly body?: Record<string, unknown> | string;
  readonly search?: string;
  readonly headers?: Record<string, string>;
  readonly code: string;
  /** yoga's status where a plain yoga cannot run the operation (a subscription needs the live feed). */
  readonly status?: number;
}

const get = (query: string) => `?query=${encodeURIComponent(query)}`;

const ROWS: readonly Row[] = [
  { name: 'parse error', method: 'POST', body: { query: '{ tunnels {' }, code: 'GRAPHQL_PARSE_FAILED' },
  {
    name: 'validation error',
    method: 'POST',
    body: { query: '{ nope }' },
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'variable coercion error',
    method: 'POST',
    body: { query: 'query($id: ID!) { tunnel(id: $id) { id } }', variables: {} },
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'variable of the wrong type',
    method: 'POST',
    body: { query: 'query($n: Int) { tunnels(first: $n) { nodes { id } } }', variables: { n: 'x' } },
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'unknown operationName',
    method: 'POST',
    body: { query: 'query A { __typename }', operationName: 'B' },
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  { name: 'bad JSON', method: 'POST', body: `{"query": ${SECRET}`, code: 'BAD_REQUEST' },
  { name: 'no query', method: 'POST', body: {}, code: 'BAD_REQUEST' },
  { name: 'mutation over GET', method: 'GET', search: get('mutation { __typename }'), code: 'BAD_REQUEST' },
  {
    name: 'subscription operation',
    method: 'POST',
    body: { query: 'subscription { tunnelEvents { kind } }' },
    code: 'NOT_ACCEPTABLE',
    // yoga refuses a stream to a client that accepts none; the gateway says how to subscribe instead.
    status: 406,
  },
];

function init(row: Row, accept: string): RequestInit {
  const headers: Record<string, string> = { accept, authorization: `Bearer ${KEY}`, ...row.headers };
  if (row.method === 'GET') return { method: 'GET', headers };
  return {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: typeof row.body === 'string' ? row.body : JSON.stringify(row.body),
  };
}

/** yoga with the gateway's schema and nothing else: the statuses to match. */
const plainYoga = createYoga({ schema, logging: false });
async function yogaStatus(row: Row, accept: string): Promise<number> {
  if (row.status !== undefined) return row.status;
  return (await plainYoga.fetch(`http://yoga/graphql${row.search ?? ''}`, init(row, accept))).status;
}

type Body = { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };

describe('request errors', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => h.close());

  for (const row of ROWS) {
    for (const accept of ACCEPTS) {
      it(`${row.name} (${accept}): yoga's status, a code, no body text`, async () => {
        const { status, text, headers } = await h.raw({ search: row.search, ...init(row, accept) });
        expect(status).toBe(await yogaStatus(row, accept));
        expect(headers.get('content-type')).toBe(`${accept}; charset=utf-8`);
        const body = JSON.parse(text) as Body;
        expect(body.data).toBeUndefined();
        expect(body.errors?.length).toBeGreaterThan(0);
        for (const error of body.errors ?? []) expect(error.extensions?.code).toBe(row.code);
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('originalError');
      });
    }
  }

  it('the statuses are the ones GraphQL over HTTP gives (pinned, not only copied from yoga)', async () => {
    const statuses = await Promise.all(
      ROWS.map(async (row) => [row.name, ...(await Promise.all(ACCEPTS.map((a) => yogaStatus(row, a))))]),
    );
    expect(statuses).toEqual([
      ['parse error', 400, 200],
      ['validation error', 400, 200],
      ['variable coercion error', 400, 400],
      ['variable of the wrong type', 400, 400],
      ['unknown operationName', 400, 400],
      ['bad JSON', 400, 400],
      ['no query', 400, 200],
      ['mutation over GET', 405, 405],
      ['subscription operation', 406, 406],
    ]);
  });

  for (const accept of ACCEPTS) {
    it(`CSRF refusal (${accept}): 403 with a code`, async () => {
      const { status, text } = await h.raw({
        method: 'POST',
        headers: { accept, 'content-type': 'text/plain' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(status).toBe(403);
      expect(JSON.parse(text)).toEqual({
        errors: [
          { message: 'Required CSRF header(s) not present', extensions: { code: 'CSRF_HEADER_REQUIRED' } },
        ],
      });
    });
  }

  it('a batch: every error of every answer has a code', async () => {
    const { text } = await h.raw({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${KEY}`,
      },
      body: JSON.stringify([
        { query: 'query($id: ID!) { tunnel(id: $id) { id } }' },
        { query: 'subscription { tunnelEvents { kind } }' },
      ]),
    });
    const answers = JSON.parse(text) as Body[];
    expect(answers.map((a) => a.errors?.map((e) => e.extensions?.code))).toEqual([
      ['BAD_USER_INPUT'],
      ['NOT_ACCEPTABLE'],
    ]);
  });

  it('bad JSON outside production: no body text either, in the answer or the log', async () => {
    const dev = await startStack({ env: { NODE_ENV: 'development' } });
    try {
      const { status, text } = await dev.raw({
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: `{"query": ${SECRET}`,
      });
      expect(status).toBe(400);
      expect(JSON.parse(text)).toEqual({
        errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }],
      });
      expect(dev.logs.join('')).not.toContain(SECRET);
      expect(h.logs.join('')).not.toContain(SECRET);
    } finally {
      await dev.close();
    }
  });
});
