// The README's client cache recipes (test/tooling/cache-recipes/, and the Relay updater in
// test/tooling/relay/src/BackendModuleRoute.ts), run with the real client packages against a gateway
// over HTTP: read a route's module, replace it with a mutation, read again from the cache alone: the
// new module shows. A plain cache shows the old one (why the recipes exist).
import { readFileSync } from 'node:fs';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { buildSchema, introspectionFromSchema, isAbstractType } from 'graphql';
import {
  commitMutation,
  createOperationDescriptor,
  Environment,
  fetchQuery,
  Network,
  RecordSource,
  Store,
} from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exampleIdsFrom, exampleOperation } from '../../src/gateway/graphiql';
import { demoData } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';
import { gatewayCache } from './cache-recipes/apollo';
import { possibleTypes } from './cache-recipes/possible-types';
import { gatewayClient } from './cache-recipes/urql';
import BackendModuleRouteQuery from './relay/src/__generated__/BackendModuleRouteQuery.graphql';
import BackendModuleRouteReplaceMutation from './relay/src/__generated__/BackendModuleRouteReplaceMutation.graphql';
import {
  backendModuleQuery,
  replaceBackendMutation,
  replaceBackendUpdater,
} from './relay/src/BackendModuleRoute';

const file = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const seed = demoData();
const ids = exampleIdsFrom(seed);
if (!ids) throw new Error('no example ids in the demo data');
const route = { edgeId: ids.edgeId, routeId: ids.routeId };
const oldBackend = seed.edges?.[0]?.routes[0]?.backend?.backendId;
const READ = exampleOperation('BackendModule').document;
const REPLACE = exampleOperation('ReplaceBackend').document;
const replaceVariables = { ...route, backendId: ids.backendId };
const headers = { authorization: `Bearer ${KEY}` };

interface ModuleData {
  httpsEdgeRouteBackend: { backend: { id: string } | null } | null;
}
const backendOf = (data: unknown) => (data as ModuleData | undefined)?.httpsEdgeRouteBackend?.backend?.id;

describe('client caches after a mutation', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed } });
  });
  afterAll(() => stack.close());
  // Each case starts from the seeded module.
  const reseed = () => stack.sandbox.seed(KEY, seed);

  it('Apollo InMemoryCache with the recipe shows the new module; a plain cache the old one', async () => {
    for (const [cache, expected] of [
      [gatewayCache(), ids.backendId],
      [new InMemoryCache({ possibleTypes }), oldBackend],
    ] as const) {
      reseed();
      const client = new ApolloClient({ cache, link: new HttpLink({ uri: stack.url, headers }) });
      const first = await client.query({ query: gql(READ), variables: route });
      expect(backendOf(first.data)).toBe(oldBackend);
      await client.mutate({ mutation: gql(REPLACE), variables: replaceVariables });
      const after = await client.query({ query: gql(READ), variables: route, fetchPolicy: 'cache-only' });
      expect(backendOf(after.data)).toBe(expected);
    }
  });

  it('Apollo relayStylePagination merges pages of tunnels into one list', async () => {
    const client = new ApolloClient({
      cache: gatewayCache(),
      link: new HttpLink({ uri: stack.url, headers }),
    });
    const query = gql(exampleOperation('TunnelsPage').document);
    const first = await client.query({ query, variables: { first: 2 } });
    const after = (first.data as { tunnels: { pageInfo: { endCursor: string } } }).tunnels.pageInfo.endCursor;
    // The next page, from the network (cache-first would answer from the merged list).
    await client.query({ query, variables: { first: 2, after }, fetchPolicy: 'network-only' });
    const merged = client.readQuery({ query, variables: { first: 2 } }) as {
      tunnels: { edges: { node: { id: string } }[] };
    };
    expect(merged.tunnels.edges.map((e) => e.node.id)).toEqual(seed.tunnels?.slice(0, 4).map((t) => t.id));
  });

  it('urql Graphcache with the recipe shows the new module; without its key the old one; no warning', async () => {
    const schema = introspectionFromSchema(buildSchema(file('schema/schema.graphql')));
    // Without the recipe's key BackendModule is embedded in its parent, Graphcache's default when a
    // type has no id, declared so that Graphcache does not warn about it.
    const plain = () =>
      new Client({
        url: stack.url,
        fetchOptions: { headers },
        exchanges: [cacheExchange({ schema, keys: { BackendModule: () => null } }), fetchExchange],
      });
    // Graphcache warns on the console about what it cannot key or match: the recipe leaves nothing.
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    for (const [client, expected] of [
      [gatewayClient(stack.url, schema, { headers }), ids.backendId],
      [plain(), oldBackend],
    ] as const) {
      reseed();
      const first = await client.query(READ, route).toPromise();
      expect(first.error).toBeUndefined();
      expect(backendOf(first.data)).toBe(oldBackend);
      const replaced = await client.mutation(REPLACE, replaceVariables).toPromise();
      expect(replaced.error).toBeUndefined();
      const after = await client.query(READ, route, { requestPolicy: 'cache-only' }).toPromise();
      expect(backendOf(after.data)).toBe(expected);
    }
    expect([...warn.mock.calls, ...error.mock.calls]).toEqual([]);
    warn.mockRestore();
    error.mockRestore();
  });

  it('Relay with the updater shows the new module; without it the old one', async () => {
    for (const [updater, expected] of [
      [replaceBackendUpdater(route), ids.backendId],
      [undefined, oldBackend],
    ] as const) {
      reseed();
      const environment = new Environment({
        network: Network.create(async (operation, variables) => {
          const response = await fetch(stack.url, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ query: operation.text, variables }),
          });
          return response.json();
        }),
        store: new Store(new RecordSource()),
      });
      const first = await fetchQuery(environment, BackendModuleRouteQuery, route).toPromise();
      expect(backendOf(first)).toBe(oldBackend);
      await new Promise<void>((resolve, reject) => {
        commitMutation(environment, {
          mutation: BackendModuleRouteReplaceMutation,
          variables: { input: replaceVariables },
          ...(updater ? { updater } : {}),
          onCompleted: () => resolve(),
          onError: reject,
        });
      });
      const operation = createOperationDescriptor(BackendModuleRouteQuery, route);
      const snapshot = environment.lookup(operation.fragment);
      expect(backendOf(snapshot.data)).toBe(expected);
    }
    expect(backendModuleQuery).toContain('query BackendModuleRouteQuery');
    expect(replaceBackendMutation).toContain('mutation BackendModuleRouteReplaceMutation');
  });
});

describe("the README's recipes", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  // The "Client caches" bullet: the recipe files it links to and the lines of them it quotes.
  const bullet = /^- \*\*Client caches\.\*\*[\s\S]*?(?=\n\n|\n- )/m.exec(readme)?.[0] ?? '';

  it('possibleTypes lists every interface and union of schema/schema.graphql with its members', () => {
    const schema = buildSchema(file('schema/schema.graphql'));
    const abstract = Object.values(schema.getTypeMap()).filter(isAbstractType);
    expect(possibleTypes).toEqual(
      Object.fromEntries(
        abstract.map((t) => [
          t.name,
          schema
            .getPossibleTypes(t)
            .map((m) => m.name)
            .sort(),
        ]),
      ),
    );
  });

  it('link the tested files and quote them word for word', () => {
    const linked = [...bullet.matchAll(/\]\((test\/tooling\/[^)]+\.ts)\)/g)].map((m) => m[1] ?? '');
    expect(linked).toEqual([
      'test/tooling/cache-recipes/apollo.ts',
      'test/tooling/cache-recipes/possible-types.ts',
      'test/tooling/cache-recipes/urql.ts',
      'test/tooling/relay/src/BackendModuleRoute.ts',
    ]);
    const sources = linked.map(file).join('\n');
    // Inline code spans (``…`` around a span holding backticks) that quote a recipe's key or field policy.
    const quotes = [...bullet.matchAll(/``\s(.+?)\s``|`([^`]+)`/g)]
      .map((m) => m[1] ?? m[2] ?? '')
      .filter((code) => /^(?:BackendModule|tunnels): /.test(code));
    expect(quotes).toHaveLength(3);
    for (const quote of quotes) expect(sources).toContain(quote);
  });
});
