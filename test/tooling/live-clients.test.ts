// Real clients on tunnelEvents: graphql-ws's own client, and Apollo Client 4 (a split link:
// subscriptions over GraphQLWsLink, the rest over HTTP) keeping a cached `tunnels` list current
// from ONLINE and OFFLINE events alone.
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { Kind, OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeTunnels } from '../../src/sandbox';
import { KEY, type Stack, startLiveStack, until } from '../live/support';

const TUNNELS = gql`
  query Tunnels {
    tunnels(first: 100) {
      nodes {
        id
        region
      }
    }
  }
`;

const EVENTS = gql`
  subscription TunnelEvents {
    tunnelEvents {
      kind
      tunnelId
      tunnel {
        id
        region
      }
    }
  }
`;

interface TunnelsData {
  tunnels: {
    __typename?: 'TunnelConnection';
    nodes: { __typename?: 'Tunnel'; id: string; region: string }[];
  };
}
interface EventData {
  tunnelEvents: {
    kind: 'ONLINE' | 'OFFLINE';
    tunnelId: string;
    tunnel: { __typename?: 'Tunnel'; id: string; region: string };
  };
}

describe('live clients', () => {
  let stack: Stack;
  const tunnels = makeTunnels(4, { seed: 61 });
  beforeEach(async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } } });
  });
  afterEach(() => stack.close());

  it('graphql-ws createClient (ws implementation) consumes the stream with connectionParams', async () => {
    const client = createClient({
      url: stack.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${KEY}` },
    });
    const seen: string[] = [];
    const iterator = client.iterate<EventData>({
      query: 'subscription { tunnelEvents(includeCurrent: true) { kind tunnelId } }',
    });
    for await (const result of iterator) {
      expect(result.errors).toBeUndefined();
      const e = result.data?.tunnelEvents;
      seen.push(`${e?.kind}:${e?.tunnelId}`);
      if (seen.length === tunnels.length) stack.sandbox.removeTunnel(KEY, tunnels[1]?.id ?? '');
      if (seen.length === tunnels.length + 1) break;
    }
    expect(seen).toEqual([...tunnels.map((t) => `ONLINE:${t.id}`), `OFFLINE:${tunnels[1]?.id}`]);
    await client.dispose();
  });

  it('Apollo Client 4 with a split link applies ONLINE and OFFLINE to the cached tunnels list', async () => {
    const ws = createClient({
      url: stack.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${KEY}` },
    });
    const link = ApolloLink.split(
      ({ query }) => {
        const definition = getMainDefinition(query);
        return (
          definition.kind === Kind.OPERATION_DEFINITION &&
          definition.operation === OperationTypeNode.SUBSCRIPTION
        );
      },
      new GraphQLWsLink(ws),
      new HttpLink({ uri: stack.url, headers: { authorization: `Bearer ${KEY}` } }),
    );
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const first = await client.query<TunnelsData>({ query: TUNNELS });
    expect(first.data?.tunnels.nodes.map((n) => n.id)).toEqual(tunnels.map((t) => t.id));

    const subscription = client.subscribe<EventData>({ query: EVENTS }).subscribe({
      next: ({ data }) => {
        const event = data?.tunnelEvents;
        if (!event) return;
        client.cache.updateQuery<TunnelsData>({ query: TUNNELS }, (cached) => {
          if (!cached) return cached;
          const rest = cached.tunnels.nodes.filter((n) => n.id !== event.tunnelId);
          // Newest first, as the list is ordered: an ONLINE tunnel is the newest.
          const nodes = event.kind === 'ONLINE' ? [event.tunnel, ...rest] : rest;
          return { tunnels: { ...cached.tunnels, nodes } };
        });
        if (event.kind === 'OFFLINE') client.cache.evict({ id: client.cache.identify(event.tunnel) });
      },
    });
    await until(() => stack.gateway.live.count(KEY) === 1, 'the subscription');
    await until(async () => stack.sandbox.calls('listTunnels') >= 3, 'a baseline walk');
    const added = stack.sandbox.addTunnel(KEY);
    stack.sandbox.removeTunnel(KEY, tunnels[2]?.id ?? '');
    const expected = [added.id, ...tunnels.filter((_, i) => i !== 2).map((t) => t.id)];
    const cachedIds = () =>
      client.cache.readQuery<TunnelsData>({ query: TUNNELS })?.tunnels.nodes.map((n) => n.id) ?? [];
    await until(() => cachedIds().join() === expected.join(), 'the cache to follow the events');
    // The cache now agrees with a fresh read from the network.
    const fresh = await client.query<TunnelsData>({ query: TUNNELS, fetchPolicy: 'network-only' });
    expect(fresh.data?.tunnels.nodes.map((n) => n.id)).toEqual(expected);
    // The offline tunnel's own record is gone from the normalized cache.
    const gone = client.cache.identify({ __typename: 'Tunnel', id: tunnels[2]?.id ?? '' }) ?? '';
    expect(gone).toBe(`Tunnel:${tunnels[2]?.id}`);
    const records = client.cache.extract() as Record<string, unknown>;
    expect(records[gone]).toBeUndefined();
    expect(records[`Tunnel:${added.id}`]).toEqual({
      __typename: 'Tunnel',
      id: added.id,
      region: added.region,
    });
    subscription.unsubscribe();
    await ws.dispose();
  });
});
