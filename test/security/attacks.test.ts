// The standard GraphQL attacks, sent over HTTP: each is refused with a clear error, and nothing
// reaches the upstream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { oneRouteAccount } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(3, { seed: 5 });
const { edge, route, backend, seed } = oneRouteAccount(tunnels);
const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/graphql-response+json, application/json',
  authorization: `Bearer ${KEY}`,
};

type Body = { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };

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

  /** The gateway still answers an ordinary query. */
  async function stillServes() {
    const { body } = await h.gql('{ tunnels(first: 1) { nodes { id } } }');
    expect(body).toEqual({ data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } } });
  }

  it('deep nesting: refused past MAX_DEPTH (15)', async () => {
    const deep = `{ __schema { types { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } } }`;
    await refused(deep, 400, 'Query depth limit of 15 exceeded, found 23.', 'GRAPHQL_VALIDATION_FAILED');
    await stillServes();
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
    await stillServes();
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
      await stillServes();
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
      await stillServes();
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
        { data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } } },
        { data: { __typename: 'Query' } },
      ]);
    });
  });

  describe('browser-borne requests', () => {
    const mutation = `mutation { deleteHttpsEdgeRouteBackend(input: { edgeId: "${edge}", routeId: "${route}" }) { __typename } }`;

    it('a mutation over GET is refused (HTTP 405)', async () => {
      const { status, text } = await h.raw({
        method: 'GET',
        search: `?query=${encodeURIComponent(mutation)}`,
        headers: { authorization: `Bearer ${KEY}`, 'x-graphql-yoga-csrf': '1', accept: 'application/json' },
      });
      expect(status).toBe(405);
      expect((JSON.parse(text) as Body).errors?.[0]?.message).toBe(
        'Can only perform a mutation operation from a POST request.',
      );
      expect(h.sandbox.calls()).toBe(0);
    });

    const simple: [string, RequestInit & { search?: string }][] = [
      [
        'a form POST (urlencoded)',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `query=${encodeURIComponent(mutation)}`,
        },
      ],
      [
        'a form POST (multipart)',
        {
          method: 'POST',
          body: (() => {
            const f = new FormData();
            f.set('operations', JSON.stringify({ query: mutation }));
            f.set('map', '{}');
            return f;
          })(),
        },
      ],
      [
        'a text/plain POST',
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ query: mutation }),
        },
      ],
    ];
    for (const [name, init] of simple) {
      it(`CSRF: ${name} is refused (HTTP 403)`, async () => {
        const { status, text } = await h.raw({
          ...init,
          headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${KEY}` },
        });
        expect(status).toBe(403);
        expect((JSON.parse(text) as Body).errors?.[0]).toEqual({
          message: 'Required CSRF header(s) not present',
          extensions: { code: 'CSRF_HEADER_REQUIRED' },
        });
        expect(h.sandbox.calls()).toBe(0);
        expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backend);
        await stillServes();
      });
    }

    // GET runs queries only and clients authenticate with a bearer header: no preflight header needed.
    for (const [name, extra] of [
      ['without a preflight header', {}],
      ['with a preflight header', { 'graphql-require-preflight': '1' }],
    ] as const) {
      it(`a GET query ${name} is served`, async () => {
        const { status, text } = await h.raw({
          method: 'GET',
          search: `?query=${encodeURIComponent('{ tunnels(first: 1) { nodes { id } } }')}`,
          headers: { authorization: `Bearer ${KEY}`, accept: 'application/json', ...extra },
        });
        expect(status).toBe(200);
        expect(JSON.parse(text)).toEqual({ data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } } });
      });
    }

    it('CORS: no origin is allowed by default outside development', async () => {
      const preflight = await h.raw({
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const post = await h.raw({
        method: 'POST',
        headers: { ...JSON_HEADERS, origin: 'https://evil.example' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(post.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});

describe('configured limits', () => {
  it('lowered limits apply to ordinary queries, before any upstream call', async () => {
    const h = await startStack({
      accounts: { [KEY]: seed },
      env: { MAX_DEPTH: '3', MAX_ALIASES: '1', MAX_TOKENS: '20', MAX_COST: '10', MAX_BATCH: '0' },
    });
    try {
      const cases: [string, string][] = [
        [
          '{ tunnels { edges { node { tunnelSession { id } } } } }',
          'Query depth limit of 3 exceeded, found 5.',
        ],
        [
          '{ a: tunnels { nodes { id } } b: tunnels { nodes { id } } }',
          'Aliases limit of 1 exceeded, found 2.',
        ],
        [
          `{ tunnels { nodes { id ${'region '.repeat(20)}} } }`,
          'Syntax Error: Document contains more that 20 tokens. Parsing aborted.',
        ],
        [
          '{ tunnels { nodes { id publicUrl region metadata } } }',
          'Query Cost limit of 10 exceeded, found 14.',
        ],
      ];
      for (const [query, message] of cases) {
        const { status, body } = await h.gql(query);
        expect(status).toBe(400);
        expect(body.errors?.map((e) => e.message)).toContain(message);
      }
      const batch = await h.raw({
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify([{ query: '{ __typename }' }]),
      });
      expect(batch.status).toBe(400);
      expect((JSON.parse(batch.text) as Body).errors?.[0]?.message).toBe('Batching is not supported.');
      expect(h.sandbox.calls()).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('INTROSPECTION=false refuses __schema and __type; __typename still works', async () => {
    const h = await startStack({ accounts: { [KEY]: seed }, env: { INTROSPECTION: 'false' } });
    try {
      for (const field of ['__schema { queryType { name } }', '__type(name: "Tunnel") { name }']) {
        const { status, body } = await h.gql(`{ ${field} }`, {}, { key: null });
        expect(status).toBe(400);
        expect(body.errors?.[0]?.message).toMatch(/^GraphQL introspection has been disabled/);
      }
      const { body } = await h.gql('{ __typename }');
      expect(body).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await h.close();
    }
  });

  it('CORS_ORIGINS lets the listed origins in, and only them', async () => {
    const h = await startStack({
      accounts: { [KEY]: seed },
      env: { CORS_ORIGINS: 'https://app.example.com,http://localhost:5173' },
    });
    try {
      const ask = (origin: string) =>
        h.raw({
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization',
          },
        });
      const allowed = await ask('https://app.example.com');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, POST');
      expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
      expect(allowed.headers.get('vary')).toContain('Origin');
      expect((await ask('http://localhost:5173')).headers.get('access-control-allow-origin')).toBe(
        'http://localhost:5173',
      );
      expect((await ask('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await h.close();
    }
  });

  it('development allows any origin by default (GraphiQL and local frontends)', async () => {
    const h = await startStack({ accounts: { [KEY]: seed }, env: { NODE_ENV: 'development' } });
    try {
      const post = await h.raw({
        method: 'POST',
        headers: { ...JSON_HEADERS, origin: 'http://localhost:3000' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(post.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    } finally {
      await h.close();
    }
  });
});
