// HTTPS edges: an edge as the upstream sends it (its routes embedded, each with its backend module),
// read into the domain's shape, and the kind's descriptor (GET /edges/https, no filter; a GET by
// id). Only a route's backend module is read: its other modules (oauth, webhook_verification, …) may
// carry secrets, and are never read, so they reach no client, log or cache.
import { HTTPS_EDGE_ID, HTTPS_EDGE_ROUTE_ID } from '../id-kinds';
import { badResponse, filled, type Json, object, present, requiredId, requiredString } from '../json';
import { FETCHED_EACH, GET_ROUTE, LIST_ROUTE, type Resource } from '../resource';
import { type BackendModule, parseBackendModule } from './backend-module';

/** The most routes the planner counts on one edge (an assumption: the provider documents no cap). */
export const MOST_ROUTES_PER_EDGE = 10;

export interface HttpsEdgeRoute {
  readonly id: string;
  readonly edgeId: string;
  readonly matchType: string;
  readonly match: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly createdAt: string;
  /** Undefined when the route has no backend module (or one without a backend). */
  readonly backend?: BackendModule;
}

export interface HttpsEdge {
  readonly id: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly createdAt: string;
  readonly hostports: readonly string[];
  readonly routes: readonly HttpsEdgeRoute[];
}

function strings(v: unknown, where: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
    throw badResponse(`${where} is not a list of strings`);
  return v as string[];
}

function parseRoute(v: unknown, i: number): HttpsEdgeRoute {
  const where = `https_edge.routes[${i}]`;
  const o: Json = object(v, where);
  const module = o.backend === undefined || o.backend === null ? undefined : parseBackendModule(o.backend);
  return {
    id: requiredId(o, 'id', where, HTTPS_EDGE_ROUTE_ID),
    edgeId: requiredId(o, 'edge_id', where, HTTPS_EDGE_ID),
    matchType: filled(o, 'match_type', where),
    match: requiredString(o, 'match', where),
    description: present(o, 'description', where),
    metadata: present(o, 'metadata', where),
    createdAt: filled(o, 'created_at', where),
    backend: module?.backend ? module : undefined,
  };
}

function parseHttpsEdge(v: unknown): HttpsEdge {
  const where = 'https_edge';
  const o = object(v, where);
  const routes = o.routes ?? [];
  if (!Array.isArray(routes)) throw badResponse(`${where}.routes is not a list`);
  return {
    id: requiredId(o, 'id', where, HTTPS_EDGE_ID),
    description: present(o, 'description', where),
    metadata: present(o, 'metadata', where),
    createdAt: filled(o, 'created_at', where),
    hostports: strings(o.hostports, `${where}.hostports`),
    routes: routes.map(parseRoute),
  };
}

/** Read-only here: the provider shut Edges down (2025-12-31); an account without any gets ERR_NGROK_7008. */
export const HTTPS_EDGE = {
  ...HTTPS_EDGE_ID,
  typeName: 'HttpsEdge',
  path: ['edges', 'https'],
  listKey: 'https_edges',
  routes: { listHttpsEdges: LIST_ROUTE, getHttpsEdge: GET_ROUTE },
  list: 'listHttpsEdges',
  get: 'getHttpsEdge',
  parse: parseHttpsEdge,
  ...FETCHED_EACH,
  noneOn: ['ERR_NGROK_7008'],
} as const satisfies Resource<HttpsEdge>;
