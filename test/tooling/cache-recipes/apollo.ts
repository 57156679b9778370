// Apollo Client: BackendModule has no id, so it is keyed by its route; a mutation's module then
// replaces the one queries read. Tunnels page with relayStylePagination; unions need possibleTypes.
import { InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { possibleTypes } from './possible-types';

export const gatewayCache = () =>
  new InMemoryCache({
    possibleTypes,
    typePolicies: {
      BackendModule: { keyFields: ['edgeId', 'routeId'] },
      Query: { fields: { tunnels: relayStylePagination() } },
    },
  });
