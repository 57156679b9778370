// Real clients on a live query (@live), as the README tells them to: urql's subscriptionExchange
// taking operations with @live, and an Apollo Client 4 link doing the same, both over graphql-ws with
// the payloads applied by applyLiveQueryJSONPatch. Each client's result follows the stand-in's
// tunnels coming and going until it equals a fresh read.
import { ApolloClient, ApolloLink, gql, InMemoryCache } from '@apollo/client';
import { getLiveDirectiveNode } from '@n1ru4l/graphql-live-query';
import { applyLiveQueryJSONPatch } from '@n1ru4l/graphql-live-query-patch-json-patch';
import { fetchExchange, subscriptionExchange, Client as UrqlClient } from '@urql/core';
import { type DocumentNode, getOperationAST, print } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeTunnels } from '../../src/sandbox';
import { KEY, type Stack, startLiveStack, until } from '../live/support';

const LIVE = 'query LiveTunnels @live { tunnels(first: 10) { nodes { id region } } }';

interface TunnelsData {
  tunnels: { nodes: { id: string; region: string }[] };
}

const isLive = (query: DocumentNode): boolean => {
  const operation = getOperationAST(query);
  return operation !== null && operation !== undefined && getLiveDirectiveNode(operation) !== null;
};

/** The graphql-ws iteration of `request`, patches applied: what both clients are handed. */
const livePayloads = (ws: Client, request: { query: string; variables?: Record<string, unknown> }) =>
  applyLiveQueryJSONPatch(ws.iterate(request) as never) as AsyncIterableIterator<{ data?: unknown }>;

describe('client libraries on live queries', () => {
  let stack: Stack;
  let ws: Client;
  const tunnels = makeTunnels(3, { seed: 62 });
  beforeEach(async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } } });
    ws = createClient({
      url: stack.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${KEY}` },
    });
  });
  afterEach(async () => {
    await ws.dispose();
    await stack.close();
  });

  /** The tunnel ids a fresh (not live) read answers now. */
  const freshIds = async () =>
    ((await stack.gql(LIVE.replace(' @live', ''))).body.data as unknown as TunnelsData).tunnels.nodes.map(
      (n) => n.id,
    );

  it("urql: subscriptionExchange takes @live queries, the result follows the stand-in's changes", async () => {
    const client = new UrqlClient({
      url: stack.url,
      fetchOptions: { headers: { authorization: `Bearer ${KEY}` } },
      exchanges: [
        subscriptionExchange({
          isSubscriptionOperation: (operation) =>
            operation.kind === 'subscription' || isLive(operation.query),
          forwardSubscription: (request) => ({
            subscribe(sink) {
              const payloads = livePayloads(ws, { query: request.query ?? '', variables: request.variables });
              void (async () => {
                for await (const payload of payloads) sink.next(payload as never);
                sink.complete();
              })().catch((error) => sink.error(error));
              return { unsubscribe: () => void payloads.return?.() };
            },
          }),
        }),
        fetchExchange,
      ],
    });
    const seen: string[][] = [];
    const { unsubscribe } = client.query<TunnelsData>(LIVE, {}).subscribe((result) => {
      if (result.data) seen.push(result.data.tunnels.nodes.map((n) => n.id));
    });
    await until(() => seen.length === 1, 'the first result');
    expect(seen[0]).toEqual(await freshIds());
    const added = stack.sandbox.addTunnel(KEY);
    stack.sandbox.removeTunnel(KEY, tunnels[1]?.id ?? '');
    const expected = [added.id, ...tunnels.filter((_, i) => i !== 1).map((t) => t.id)];
    await until(() => seen.at(-1)?.join() === expected.join(), 'urql to follow the changes');
    expect(await freshIds()).toEqual(expected);
    unsubscribe();
  });

  it('Apollo Client 4: a link for @live queries, the watched query follows the changes', async () => {
    const link = new ApolloLink(
      (operation) =>
        new Observable((observer) => {
          const payloads = livePayloads(ws, {
            query: print(operation.query),
            variables: operation.variables,
          });
          void (async () => {
            for await (const payload of payloads) observer.next(payload as never);
            observer.complete();
          })().catch((error) => observer.error(error));
          return () => void payloads.return?.();
        }),
    );
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const seen: string[][] = [];
    const watched = client
      .watchQuery<TunnelsData>({ query: gql(LIVE), fetchPolicy: 'network-only' })
      .subscribe(({ data }) => {
        const nodes = (data as TunnelsData | undefined)?.tunnels?.nodes;
        if (nodes) seen.push(nodes.map((n) => n.id));
      });
    await until(() => seen.length >= 1, 'the first result');
    expect(seen[0]).toEqual(await freshIds());
    const added = stack.sandbox.addTunnel(KEY);
    await until(() => seen.at(-1)?.[0] === added.id, 'Apollo to follow the change');
    expect(seen.at(-1)).toEqual(await freshIds());
    watched.unsubscribe();
  });
});
