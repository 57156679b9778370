// urql Graphcache: BackendModule has no id, so it is keyed by its route; a mutation's module then
// replaces the one queries read. Types without an identity are embedded in their parent (null key).
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { possibleTypes } from './possible-types';

const embedded = () => null;

export const gatewayClient = (url: string, fetchOptions?: RequestInit) =>
  new Client({
    url,
    fetchOptions,
    // POST: a GET would need a CSRF header (apollo-require-preflight) on this gateway.
    preferGetMethod: false,
    exchanges: [
      cacheExchange({
        possibleTypes,
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
