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

/** A stand-in tunnel as the gateway shows it with TUNNEL_FIELDS (`base`: the stand-in's URL). */
export function graphqlTunnel(t: UpstreamTunnel, base: string) {
  return {
    id: t.id,
    publicUrl: t.public_url ?? null,
    startedAt: t.started_at,
    metadata: t.metadata ?? null,
    proto: t.proto ? t.proto.toUpperCase() : null,
    region: t.region,
    forwardsTo: t.forwards_to,
    tunnelSession: { id: t.tunnel_session.id, uri: `${base}/tunnel_sessions/${t.tunnel_session.id}` },
    endpoint: t.endpoint ? { id: t.endpoint.id, uri: `${base}/endpoints/${t.endpoint.id}` } : null,
    backends: t.backends
      ? t.backends.map((b) => ({ id: b.id, uri: `${base}/backends/tunnel_group/${b.id}` }))
      : null,
    labels: t.labels
      ? Object.keys(t.labels)
          .sort()
          .map((name) => ({ name, value: t.labels?.[name] }))
      : null,
  };
}
