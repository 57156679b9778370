// The standard GraphQL attacks, sent over HTTP: each is refused with a clear error, and nothing
// reaches the upstream (browser-borne ones: csrf-cors.test.ts; lowered limits: configured-limits.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY, type Stack, startStack } from '../support/stack';
import { account, JSON_HEADERS, stillServes, tunnels } from './attack-fixtures';

const { seed } = account;

describe('standard GraphQL attacks', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({ accounts: { [KEY]: seed } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.resetCalls());

  /** Sends the attack and checks the refusal: HTTP status, the one error, no upstream call. */
  async function refused(query: string, status: number, message: string, code: string) {
    const { status: got, body } = await h.gql(query);
    expect(got).toBe(status);
    expect(body.data).toBeUndefined();
    expect(body.errors?.map((e) => [e.message, e.extensions?.code])).toContainEqual([message, code]);
    expect(h.sandbox.calls()).toBe(0);
    return body;
  }

  it('deep nesting: refused past MAX_DEPTH (15)', async () => {
    const deep = `{ __schema { types { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } } }`;
    await refused(deep, 400, 'Query depth limit of 15 exceeded, found 23.', 'GRAPHQL_VALIDATION_FAILED');
    await stillServes(h);
  });

  it('alias duplication: refused past MAX_ALIASES (15)', async () => {
    const many = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: tunnel(id: "${tunnels[0]?.id}") { id }`).join(' ')} }`;
    await refused(many, 400, 'Aliases limit of 15 exceeded, found 16.', 'GRAPHQL_VALIDATION_FAILED');
  });

  it('field duplication: a huge selection is refused past MAX_TOKENS (2000) while parsing', async () => {
    const dup = `{ tunnels { nodes { ${'id '.repeat(3000)}} } }`;
    await refused(
      dup,
      400,
      // graphql-js's own wording, typo included.
      'Syntax Error: Document contains more that 2000 tokens. Parsing aborted.',
      'GRAPHQL_PARSE_FAILED',
    );
  });

  it('directive overloading: refused past MAX_DIRECTIVES (10)', async () => {
    const overloaded = `{ __typename ${'@skip(if: false) '.repeat(11)}}`;
    await refused(overloaded, 400, 'Directives limit of 10 exceeded, found 11.', 'GRAPHQL_VALIDATION_FAILED');
  });

  it('circular fragments: refused, and the gateway does not loop', async () => {
    const circular = `query { ...A }
      fragment A on Query { tunnels { nodes { id } } ...B }
      fragment B on Query { ...A }`;
    await refused(
      circular,
      400,
      'Cannot spread fragment "A" within itself via "B".',
      'GRAPHQL_VALIDATION_FAILED',
    );
    await stillServes(h);
  });

  it('introspection abuse: nested type lists are refused', async () => {
    const abuse = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    await refused(abuse, 400, 'Maximum introspection depth exceeded', 'GRAPHQL_VALIDATION_FAILED');
    const aliased = `{ ${Array.from({ length: 16 }, (_, i) => `s${i}: __schema { queryType { name } }`).join(' ')} }`;
    await refused(aliased, 400, 'Aliases limit of 15 exceeded, found 16.', 'GRAPHQL_VALIDATION_FAILED');
  });

  it("tooling's full introspection query stays allowed", async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const { status, body } = await h.gql(getIntrospectionQuery({ descriptions: true }), {}, { key: null });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.__schema).toMatchObject({ queryType: { name: 'Query' } });
  });

  describe('huge documents', () => {
    it('a body over MAX_BODY_BYTES (100 kB) gets HTTP 413', async () => {
      const query = `{ tunnel(id: "tn_${'a'.repeat(120_000)}") { id } }`;
      const { status, text, headers } = await h.raw({
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ query }),
      });
      expect(status).toBe(413);
      expect(JSON.parse(text)).toEqual({
        errors: [{ message: 'Request body too large', extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }],
      });
      // The unread rest of the body must not stall the connection: it is closed.
      expect(headers.get('connection')).toBe('close');
      expect(h.sandbox.calls()).toBe(0);
      await stillServes(h);
    });

    it('a streamed body without Content-Length is cut at the same size', async () => {
      const chunk = new TextEncoder().encode(`${'x'.repeat(10_000)}`);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode('{"query":"{ __typename }","x":"'));
          if (sent >= 30) {
            controller.enqueue(new TextEncoder().encode('"}'));
            controller.close();
            return;
          }
          sent += 1;
          controller.enqueue(chunk);
        },
      });
      const { status } = await h.raw({
        method: 'POST',
        headers: JSON_HEADERS,
        body,
        duplex: 'half',
      } as RequestInit);
      expect(status).toBe(413);
      await stillServes(h);
    });
  });

  describe('batching', () => {
    const op = { query: '{ tunnels(first: 1) { nodes { id } } }' };

    it(`more than MAX_BATCH (5) operations in one request: HTTP 413, nothing runs`, async () => {
      const { status, text } = await h.raw({
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify(Array(6).fill(op)),
      });
      expect(status).toBe(413);
      expect(JSON.parse(text)).toEqual({
        errors: [
          {
            message: 'Batching is limited to 5 operations per request.',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
      expect(h.sandbox.calls()).toBe(0);
    });

    it('a batch within the limit is answered in order', async () => {
      const { status, text } = await h.raw({
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify([op, { query: '{ __typename }' }]),
      });
      expect(status).toBe(200);
      expect(JSON.parse(text)).toEqual([
        {
          data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } },
          extensions: { upstreamCalls: { predicted: 1, made: 1 } },
        },
        { data: { __typename: 'Query' }, extensions: { upstreamCalls: { predicted: 0, made: 0 } } },
      ]);
    });
  });
});
