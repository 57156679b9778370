// Operations and accounts the reliability and security tests share.
import { type AccountSeed, newId, type UpstreamTunnel } from '../../src/sandbox';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The two writes, as the reliability and security tests send them. */
export const REPLACE = `mutation($input: ReplaceHttpsEdgeRouteBackendInput!) {
  replaceHttpsEdgeRouteBackend(input: $input) {
    __typename
    ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { backend { id } } }
  }
}`;
export const DELETE = `mutation($input: DeleteHttpsEdgeRouteBackendInput!) {
  deleteHttpsEdgeRouteBackend(input: $input) { __typename }
}`;

/** An account with `tunnels` and one HTTPS edge whose single route has an enabled module. */
export function oneRouteAccount(tunnels: UpstreamTunnel[]) {
  const edge = newId('edghts');
  const route = newId('edghtsrt');
  const backend = newId('bkdtg');
  const seed: AccountSeed = {
    tunnels,
    edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backend, enabled: true } }] }],
    backends: [backend],
  };
  return { edge, route, backend, seed };
}
