// Endpoint operations as persisted operations (a manifest, PERSISTED_OPERATIONS_ONLY) and as
// automatic persisted queries with Apollo Client: an endpoints query and a createCloudEndpoint
// mutation run by hash with exact data and calls; a mutation whose hash is not known yet runs once,
// when its text comes.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const tunnels = makeTunnels(4, { seed: 83, kind: 'agent' });
const POLICY = 'on_http_request: []';
const ENDPOINTS = `query AgentEndpoints($first: Int) {
  endpoints(first: $first, filter: { types: [AGENT] }) { nodes { id url type } }
}`;
const CREATE = `mutation CreateEndpoint($url: String!, $trafficPolicy: String!) {
  createCloudEndpoint(input: { url: $url, trafficPolicy: $trafficPolicy }) {
    __typename
    ... on CreateCloudEndpointPayload { endpoint { url type } }
  }
}`;
/** The agent endpoints the stand-in lists first, as the query shows them. */
const agentEndpoints = (count: number) =>
  tunnels.slice(0, count).map((t) => ({ id: `ep_${t.id.slice(3)}`, url: t.public_url, type: 'AGENT' }));

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

describe('endpoint operations persisted in a manifest (PERSISTED_OPERATIONS_ONLY)', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'endpoint-persisted-'));
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ [sha256(ENDPOINTS)]: ENDPOINTS, [sha256(CREATE)]: CREATE }));
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { PERSISTED_OPERATIONS_FILE: manifest, PERSISTED_OPERATIONS_ONLY: 'true' },
    });
  });
  afterAll(async () => {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the endpoints query by documentId and by the Apollo extension, one call each', async () => {
    const byId = await send(stack, { documentId: sha256(ENDPOINTS), variables: { first: 2 } });
    expect(byId).toEqual({
      status: 200,
      body: {
        data: { endpoints: { nodes: agentEndpoints(2) } },
        extensions: { upstreamCalls: { predicted: 1, made: 1 } },
      },
    });
    const apollo = await send(stack, {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(ENDPOINTS) } },
      variables: { first: 2 },
    });
    expect(apollo).toEqual(byId);
    expect(stack.sandbox.calls('listEndpoints')).toBe(2);
  });

  it('runs createCloudEndpoint by id; its text sent as a query is refused before any call', async () => {
    const variables = { url: 'https://persisted.example.com', trafficPolicy: POLICY };
    const made = await send(stack, { documentId: sha256(CREATE), variables });
    expect(made).toEqual({
      status: 200,
      body: {
        data: {
          createCloudEndpoint: {
            __typename: 'CreateCloudEndpointPayload',
            endpoint: { url: 'https://persisted.example.com', type: 'CLOUD' },
          },
        },
        extensions: { upstreamCalls: { predicted: 1, made: 1 } },
      },
    });
    const asText = await send(stack, {
      query: CREATE,
      variables: { ...variables, url: 'https://text.example.com' },
    });
    expect(asText.status).toBe(400);
    expect((asText.body.errors as { extensions: { code: string } }[])[0]?.extensions.code).toBe(
      'PERSISTED_QUERY_ONLY',
    );
    expect(stack.sandbox.calls('createEndpoint')).toBe(1);
    const urls = stack.sandbox.listEndpoints(KEY).map((e) => e.url);
    expect(urls).toContain('https://persisted.example.com');
    expect(urls).not.toContain('https://text.example.com');
  });
});

interface Sent {
  query: boolean;
  hash: string | undefined;
  code: string | undefined;
}

/** An Apollo client with APQ over a fetch that records what each request carried and its error code. */
function apolloClient(url: string) {
  const sent: Sent[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const params = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    const response = await fetch(input, init);
    const body = (await response.clone().json()) as { errors?: { extensions?: { code?: string } }[] };
    sent.push({
      query: typeof params.query === 'string',
      hash: (params.extensions as { persistedQuery?: { sha256Hash?: string } } | undefined)?.persistedQuery
        ?.sha256Hash,
      code: body.errors?.[0]?.extensions?.code,
    });
    return response;
  };
  const link = new PersistedQueryLink({ sha256 }).concat(
    new HttpLink({ uri: url, fetch: recordingFetch, headers: { authorization: `Bearer ${KEY}` } }),
  );
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
}

/** What Apollo sends and hashes: the document as its cache rewrites it (with __typename added). */
const sentText = (document: ReturnType<typeof gql>) => print(new InMemoryCache().transformDocument(document));

describe('automatic persisted queries for endpoint operations', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterAll(() => stack.close());

  it('the endpoints query: registered on its first run, then sent by hash alone', async () => {
    const { client, sent } = apolloClient(stack.url);
    const query = gql(ENDPOINTS);
    const hash = sha256(sentText(query));
    for (let run = 0; run < 2; run += 1) {
      const { data } = await client.query({ query, variables: { first: 3 }, fetchPolicy: 'network-only' });
      const nodes = (data as { endpoints: { nodes: { id: string }[] } }).endpoints.nodes;
      expect(nodes.map((n) => n.id)).toEqual(agentEndpoints(3).map((e) => e.id));
    }
    expect(sent).toEqual([
      { query: false, hash, code: 'PERSISTED_QUERY_NOT_FOUND' },
      { query: true, hash, code: undefined },
      { query: false, hash, code: undefined },
    ]);
    // The unknown hash ran nothing: one call per run that executed.
    expect(stack.sandbox.calls('listEndpoints')).toBe(2);
  });

  it('createCloudEndpoint: the unknown hash creates nothing, the registration creates once, the hash once', async () => {
    const { client, sent } = apolloClient(stack.url);
    const mutation = gql(CREATE);
    const hash = sha256(sentText(mutation));
    for (const url of ['https://apq-1.example.com', 'https://apq-2.example.com']) {
      const { data } = await client.mutate({ mutation, variables: { url, trafficPolicy: POLICY } });
      expect(data).toEqual({
        createCloudEndpoint: {
          __typename: 'CreateCloudEndpointPayload',
          endpoint: { __typename: 'Endpoint', url, type: 'CLOUD' },
        },
      });
    }
    expect(sent).toEqual([
      { query: false, hash, code: 'PERSISTED_QUERY_NOT_FOUND' },
      { query: true, hash, code: undefined },
      { query: false, hash, code: undefined },
    ]);
    expect(stack.sandbox.calls('createEndpoint')).toBe(2);
    const clouds = stack.sandbox.listEndpoints(KEY).filter((e) => e.url.startsWith('https://apq-'));
    expect(clouds.map((e) => e.url).sort()).toEqual([
      'https://apq-1.example.com',
      'https://apq-2.example.com',
    ]);
  });
});
