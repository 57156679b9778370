// urql Graphcache: BackendModule has no id, so it is keyed by its route; a mutation's module then
// replaces the one queries read. Types without an identity are embedded in their parent (null key).
// The schema (an introspection result) tells Graphcache which union member a result is, so it writes
// only the fragments that match.
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import type { IntrospectionQuery } from 'graphql';

const embedded = () => null;

export const gatewayClient = (url: string, schema: IntrospectionQuery, fetchOptions?: RequestInit) =>
  new Client({
    url,
    fetchOptions,
    exchanges: [
      cacheExchange({
        schema,
        keys: {
          BackendModule: (module) => `${module.edgeId}/${module.routeId}`,
          TunnelConnection: embedded,
          TunnelEdge: embedded,
          PageInfo: embedded,
          TunnelLabel: embedded,
          ReplaceHttpsEdgeRouteBackendPayload: embedded,
          DeleteHttpsEdgeRouteBackendPayload: embedded,
          InvalidInputError: embedded,
          NotFoundError: embedded,
        },
      }),
      fetchExchange,
    ],
  });
