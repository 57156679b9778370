// Automatic persisted queries with Apollo Client's own PersistedQueryLink over real HTTP: the first
// run sends the hash, is told PersistedQueryNotFound and sends the query once; later runs send only
// the hash. Over POST and GET, with a wrong hash refused, the store bounded, and nothing registered
// when PERSISTED_OPERATIONS_ONLY is on.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOperation } from '../../src/gateway/graphiql';
import { createApqStore } from '../../src/gateway/persisted';
import { makeTunnels } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const tunnels = makeTunnels(3, { seed: 14 });
const ONE = gql(exampleOperation('OneTunnel').document);
const PAGE = gql(exampleOperation('TunnelsPage').document);
/** What Apollo sends and hashes: the document as its cache rewrites it (with __typename added). */
const sentText = (document: typeof ONE) => print(new InMemoryCache().transformDocument(document));

interface Sent {
  method: string;
  query: boolean;
  hash: string | undefined;
  code: string | undefined;
}

/** An Apollo client with APQ, over a fetch that records what each request carried and what came back. */
function apolloClient(url: string, options: { useGET?: boolean } = {}) {
  const sent: Sent[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const target = new URL(String(input));
    const params: Record<string, unknown> =
      init?.method === 'GET'
        ? {
            query: target.searchParams.get('query') ?? undefined,
            extensions: JSON.parse(target.searchParams.get('extensions') ?? 'null'),
          }
        : JSON.parse(String(init?.body ?? '{}'));
    const response = await fetch(input, init);
    const body = (await response.clone().json()) as { errors?: { extensions?: { code?: string } }[] };
    sent.push({
      method: init?.method ?? 'GET',
      query: typeof params.query === 'string',
      hash: (params.extensions as { persistedQuery?: { sha256Hash?: string } } | null)?.persistedQuery
        ?.sha256Hash,
      code: body.errors?.[0]?.extensions?.code,
    });
    return response;
  };
  const link = new PersistedQueryLink({ sha256, useGETForHashedQueries: options.useGET ?? false }).concat(
    new HttpLink({
      uri: url,
      fetch: recordingFetch,
      // No CSRF header: GET runs queries only, so the gateway needs none for it (JSON POSTs neither).
      headers: { authorization: `Bearer ${KEY}` },
    }),
  );
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
}

describe('automatic persisted queries with Apollo Client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());

  it('POST: the first run registers the query, the second sends only its hash', async () => {
    const { client, sent } = apolloClient(stack.url);
    const hash = sha256(sentText(ONE));
    for (let run = 0; run < 2; run++) {
      const { data } = await client.query({
        query: ONE,
        variables: { id: tunnels[1]?.id },
        fetchPolicy: 'network-only',
      });
      expect((data as { tunnel: { id: string } }).tunnel.id).toBe(tunnels[1]?.id);
    }
    expect(sent).toEqual([
      { method: 'POST', query: false, hash, code: 'PERSISTED_QUERY_NOT_FOUND' },
      { method: 'POST', query: true, hash, code: undefined },
      { method: 'POST', query: false, hash, code: undefined },
    ]);
    expect(stack.sandbox.calls('getTunnel')).toBe(2);
  });

  it('GET: hashed queries go as GET, the registration as POST, then GET with the hash alone', async () => {
    const { client, sent } = apolloClient(stack.url, { useGET: true });
    const hash = sha256(sentText(PAGE));
    for (let run = 0; run < 2; run++) {
      const { data } = await client.query({
        query: PAGE,
        variables: { first: 2 },
        fetchPolicy: 'network-only',
      });
      const ids = (data as { tunnels: { edges: { node: { id: string } }[] } }).tunnels.edges.map(
        (e) => e.node.id,
      );
      expect(ids).toEqual(tunnels.slice(0, 2).map((t) => t.id));
    }
    expect(sent).toEqual([
      { method: 'GET', query: false, hash, code: 'PERSISTED_QUERY_NOT_FOUND' },
      { method: 'POST', query: true, hash, code: undefined },
      { method: 'GET', query: false, hash, code: undefined },
    ]);
  });

  it('refuses a query whose hash is not its sha256, and remembers nothing for it', async () => {
    stack.sandbox.resetCalls();
    const query = print(ONE);
    const wrong = sha256(`${query} `);
    const register = await stack.gql(query, { id: tunnels[0]?.id }, {});
    expect(register.body.errors).toBeUndefined();
    const response = await fetch(stack.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query, extensions: { persistedQuery: { version: 1, sha256Hash: wrong } } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'provided sha does not match query',
          extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' },
        },
      ],
    });
    const again = await fetch(stack.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: wrong } } }),
    });
    expect(
      ((await again.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
    ).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(stack.sandbox.calls()).toBe(1);
  });
});

describe('the APQ store', () => {
  it('keeps at most its entries, dropping the least recently used', () => {
    const store = createApqStore(2);
    const queries = ['{ a }', '{ b }', '{ c }'];
    for (const q of queries) expect(store.register(sha256(q), q)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.get(sha256('{ a }'))).toBeUndefined();
    expect(store.get(sha256('{ c }'))).toBe('{ c }');
    expect(store.register(sha256('{ a }'), '{ b }')).toBe(false);
  });
});

describe('APQ with PERSISTED_OPERATIONS_ONLY', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apq-'));
    const manifest = join(dir, 'manifest.json');
    // Apollo's ids are the sha256 of the printed document, as its manifest generator writes them.
    writeFileSync(manifest, JSON.stringify({ [sha256(sentText(ONE))]: sentText(ONE) }));
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { PERSISTED_OPERATIONS_FILE: manifest, PERSISTED_OPERATIONS_ONLY: 'true' },
    });
  });
  afterAll(async () => {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the manifest's operations by hash, and registers nothing else", async () => {
    const { client, sent } = apolloClient(stack.url);
    const { data } = await client.query({ query: ONE, variables: { id: tunnels[0]?.id } });
    expect((data as { tunnel: { id: string } }).tunnel.id).toBe(tunnels[0]?.id);
    await expect(client.query({ query: PAGE, variables: { first: 1 } })).rejects.toThrow(
      'Only persisted operations are accepted: send their id, not a query.',
    );
    const pageHash = sha256(sentText(PAGE));
    expect(sent).toEqual([
      { method: 'POST', query: false, hash: sha256(sentText(ONE)), code: undefined },
      { method: 'POST', query: false, hash: pageHash, code: 'PERSISTED_QUERY_NOT_FOUND' },
      { method: 'POST', query: true, hash: pageHash, code: 'PERSISTED_QUERY_ONLY' },
    ]);
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
  });
});
