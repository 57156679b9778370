// Persisted operations: a manifest loaded at start (PERSISTED_OPERATIONS_FILE), ids sent the
// Apollo way or as documentId, and PERSISTED_OPERATIONS_ONLY refusing everything else.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/app';
import { ConfigError, loadConfig } from '../../src/config';
import { EXAMPLE_OPERATIONS } from '../../src/gateway/graphiql';
import { makeTunnels } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(3, { seed: 63 });
const operations = EXAMPLE_OPERATIONS;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const byName = (name: string) => {
  const op = operations.find((o) => o.name === name);
  if (!op) throw new Error(`no example operation ${name}`);
  return { ...op, hash: sha256(op.document) };
};
const dir = mkdtempSync(join(tmpdir(), 'persisted-'));
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const manifest = write(
  'manifest.json',
  Object.fromEntries(operations.map((o) => [sha256(o.document), o.document])),
);

async function send(stack: Stack, body: Record<string, unknown>) {
  const response = await fetch(stack.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      authorization: `Bearer ${KEY}`,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const firstTunnel = { tunnel: { id: tunnels[0]?.id } };

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persisted operations from a manifest', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { PERSISTED_OPERATIONS_FILE: manifest },
    });
  });
  afterAll(() => stack.close());

  it('runs an operation sent by its hash (Apollo extension) or as documentId', async () => {
    const one = byName('OneTunnel');
    const variables = { id: tunnels[0]?.id };
    const apollo = await send(stack, {
      extensions: { persistedQuery: { version: 1, sha256Hash: one.hash } },
      variables,
    });
    expect(apollo.status).toBe(200);
    expect((apollo.body.data as { tunnel: { id: string } }).tunnel.id).toBe(tunnels[0]?.id);
    const documentId = await send(stack, { documentId: one.hash, variables });
    expect(documentId).toEqual(apollo);
    expect(stack.sandbox.calls('getTunnel')).toBe(2);
  });

  it('still runs other documents, since PERSISTED_OPERATIONS_ONLY is off', async () => {
    const { status, body } = await send(stack, {
      query: 'query Mine($id: ID!) { tunnel(id: $id) { id } }',
      variables: { id: tunnels[0]?.id },
    });
    expect({ status, body }).toEqual({
      status: 200,
      body: { data: firstTunnel, extensions: { upstreamCalls: { predicted: 1, made: 1 } } },
    });
  });

  it('answers PersistedQueryNotFound for an unknown id, without an upstream call', async () => {
    stack.sandbox.resetCalls();
    const { status, body } = await send(stack, { documentId: sha256('unknown') });
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }],
    });
    expect(stack.sandbox.calls()).toBe(0);
  });
});

describe('PERSISTED_OPERATIONS_ONLY', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { PERSISTED_OPERATIONS_FILE: manifest, PERSISTED_OPERATIONS_ONLY: 'true' },
    });
  });
  afterAll(() => stack.close());

  it('refuses any document that is not sent by id, before parsing it or calling the upstream', async () => {
    const one = byName('OneTunnel');
    const { status, body } = await send(stack, { query: one.document, variables: { id: tunnels[0]?.id } });
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [
        {
          message: 'Only persisted operations are accepted: send their id, not a query.',
          extensions: { code: 'PERSISTED_QUERY_ONLY' },
        },
      ],
    });
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('runs the persisted ones, with exact data', async () => {
    const { status, body } = await send(stack, {
      documentId: byName('TunnelsPage').hash,
      variables: { first: 1 },
    });
    expect(status).toBe(200);
    const page = (body.data as { tunnels: { edges: { node: { id: string } }[]; pageInfo: unknown } }).tunnels;
    expect(page.edges.map((e) => e.node.id)).toEqual([tunnels[0]?.id]);
    expect(page.pageInfo).toEqual({ hasNextPage: true, endCursor: expect.any(String) });
  });

  it('a request with neither a query nor an id is a clear 400', async () => {
    const { status, body } = await send(stack, { variables: {} });
    expect(status).toBe(400);
    expect((body.errors as { extensions: { code: string } }[])[0]?.extensions.code).toBe('BAD_REQUEST');
  });
});

describe('loading the manifest', () => {
  const config = (env: Record<string, string>) =>
    loadConfig({ NODE_ENV: 'test', NGROK_API_URL: 'http://127.0.0.1:9', ...env });
  const refusal = (env: Record<string, string>) => {
    try {
      createGateway(config(env));
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it("accepts Apollo's manifest format", async () => {
    const one = byName('OneTunnel');
    const path = write('apollo.json', {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: 'one-tunnel', name: 'OneTunnel', type: 'query', body: one.document }],
    });
    const gateway = createGateway(
      config({ PERSISTED_OPERATIONS_FILE: path, PERSISTED_OPERATIONS_ONLY: 'true' }),
    );
    try {
      const response = await gateway.yoga.fetch('http://gateway/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ documentId: 'one-tunnel', variables: { id: 'not-an-id' } }),
      });
      // Unauthenticated: the persisted document was found and executed up to access control.
      expect(response.status).toBe(401);
      expect(
        ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions
          .code,
      ).toBe('UNAUTHENTICATED');
    } finally {
      await gateway.close();
    }
  });

  it('stops start-up with one line for a missing, malformed, unparsable or invalid manifest', () => {
    expect(refusal({ PERSISTED_OPERATIONS_FILE: join(dir, 'missing.json') })).toBe(
      `PERSISTED_OPERATIONS_FILE: cannot read "${join(dir, 'missing.json')}" (ENOENT)`,
    );
    const notJson = write('not.json', '{');
    expect(refusal({ PERSISTED_OPERATIONS_FILE: notJson })).toBe(
      `PERSISTED_OPERATIONS_FILE: cannot read "${notJson}" (not valid JSON)`,
    );
    const wrongShape = write('shape.json', { a: 1 });
    expect(refusal({ PERSISTED_OPERATIONS_FILE: wrongShape })).toMatch(
      /is neither a \{"id": "document"\} map/,
    );
    expect(refusal({ PERSISTED_OPERATIONS_FILE: write('parse.json', { broken: 'query {' }) })).toBe(
      'PERSISTED_OPERATIONS_FILE: the operation "broken" does not parse',
    );
    expect(
      refusal({ PERSISTED_OPERATIONS_FILE: write('stale.json', { stale: '{ tunnel { gone } }' }) }),
    ).toMatch(/^PERSISTED_OPERATIONS_FILE: the operation "stale" is not valid: /);
  });

  it('PERSISTED_OPERATIONS_ONLY without a manifest is a configuration error', () => {
    expect(() => config({ PERSISTED_OPERATIONS_ONLY: 'true' })).toThrow(
      'PERSISTED_OPERATIONS_ONLY: needs PERSISTED_OPERATIONS_FILE (the allowed operations)',
    );
  });
});
