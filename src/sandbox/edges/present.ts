// HTTPS edges and backends as the API writes them: id, uri, created_at (from the id), then the
// item's own fields; a route with its backend module as it stands (writes change it) and its other
// modules as seeded; a tunnel group with the online tunnels that name it.

import type { BackendSegment } from '../api/routes';
import { presentModule } from '../backend-modules/present';
import { idTime } from '../state/ids';
import { ref, resourceUri } from '../state/resources';
import type { AccountStore } from '../state/store';
import type { UpstreamBackend } from '../types';

type Json = Record<string, unknown>;

const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const createdAt = (id: string): string => rfc3339(idTime(id) ?? new Date(0));

/** Only the fields that are set: the API leaves optional fields out. */
function defined(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The edge as GET /edges/https/{id} sends it, or undefined when the account has no such edge. */
export function presentEdge(base: string, account: AccountStore, edgeId: string): Json | undefined {
  const modules = account.modulesOf(edgeId);
  if (modules === undefined) return undefined;
  const seeded = account.edgeDetails.edge(edgeId);
  const uri = `${base}/edges/https/${edgeId}`;
  const routes = [...modules].map(([routeId, module]) => {
    const route = seeded?.routes.find((r) => r.id === routeId);
    return defined({
      edge_id: edgeId,
      id: routeId,
      uri: `${uri}/routes/${routeId}`,
      created_at: createdAt(routeId),
      match_type: route?.match_type ?? 'path_prefix',
      match: route?.match ?? '/',
      description: route?.description,
      metadata: route?.metadata,
      backend: module === undefined ? undefined : presentModule(base, module),
      ...route?.modules,
    });
  });
  return defined({
    id: edgeId,
    uri,
    created_at: createdAt(edgeId),
    description: seeded?.description,
    metadata: seeded?.metadata,
    hostports: seeded?.hostports ?? [],
    tls_termination: { enabled: true, terminate_at: 'edge' },
    routes,
  });
}

/** The kind's own fields, seeded or its defaults. */
function kindFields(base: string, account: AccountStore, kind: BackendSegment, b: UpstreamBackend): Json {
  switch (kind) {
    case 'tunnel_group':
      return {
        labels: b.labels ?? {},
        tunnels: account.tunnelsBehind(b.id).map((t) => ({ id: t.id, uri: resourceUri(base, t.id) })),
      };
    case 'failover':
      return { backends: Array.isArray(b.backends) ? b.backends : [] };
    case 'weighted':
      return { backends: b.backends !== undefined && !Array.isArray(b.backends) ? b.backends : {} };
    case 'http_response':
      return { body: b.body, headers: b.headers ?? {}, status_code: b.status_code ?? 200 };
    case 'static':
      return { address: b.address ?? '127.0.0.1:80', tls: b.tls ?? { enabled: false } };
  }
}

/** The backend as GET /backends/<kind>/{id} sends it. */
export function presentBackend(base: string, account: AccountStore, kind: BackendSegment, id: string): Json {
  const seeded = account.edgeDetails.backend(id) ?? { id };
  return defined({
    id,
    uri: ref(base, { id, uri: '' }).uri,
    created_at: createdAt(id),
    description: seeded.description,
    metadata: seeded.metadata,
    ...kindFields(base, account, kind, seeded),
  });
}
