// The five kinds of backend an HTTPS edge route's module may name (tunnel group, failover, weighted,
// HTTP response, static): each as the upstream sends it, read into the domain's shape, and its
// descriptor. The upstream lists them per kind without a filter (GET /backends/<kind>): by id and by
// reference each is one GET (/backends/<kind>/{id}, the id's prefix naming the kind).
import {
  BACKEND_KINDS,
  FAILOVER_BACKEND_ID,
  HTTP_RESPONSE_BACKEND_ID,
  STATIC_BACKEND_ID,
  TUNNEL_GROUP_BACKEND_ID,
  TUNNEL_ID,
  WEIGHTED_BACKEND_ID,
} from '../id-kinds';
import { hasPrefixOf } from '../id-shape';
import { badResponse, filled, type Json, object, present, type Ref, ref, requiredId } from '../json';
import { FETCHED_EACH, GET_ROUTE, type IdKindSpec, LIST_ROUTE, type Resource } from '../resource';
import type { TunnelLabel } from './tunnel';

/**
 * The most items the planner counts in the lists a backend holds (the provider documents no caps:
 * assumptions, which the demand planner's predictions rest on): a failover's or a weighted backend's
 * backends, a tunnel group's tunnels (one upstream page), the backends a labeled tunnel names.
 */
export const MOST_BACKENDS_PER_BACKEND = 10;
export const MOST_TUNNELS_PER_GROUP = 100;
export const MOST_BACKENDS_PER_TUNNEL = 5;

/** What every backend has. */
interface Backend {
  readonly id: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly createdAt: string;
}

export interface TunnelGroupBackend extends Backend {
  readonly labels: readonly TunnelLabel[];
  readonly tunnels: readonly Ref[];
}

export interface FailoverBackend extends Backend {
  readonly backends: readonly Ref[];
}

export interface WeightedBackendEntry {
  readonly backend: Ref;
  readonly weight: number;
}

export interface WeightedBackend extends Backend {
  readonly backends: readonly WeightedBackendEntry[];
}

export interface HttpHeader {
  readonly name: string;
  readonly value: string;
}

export interface HttpResponseBackend extends Backend {
  readonly statusCode: number;
  readonly body?: string;
  readonly headers: readonly HttpHeader[];
}

export interface StaticBackend extends Backend {
  readonly address: string;
  readonly tlsEnabled: boolean;
}

/** Each kind's path segment under /backends. */
const SEGMENT: Readonly<Record<string, string>> = {
  [TUNNEL_GROUP_BACKEND_ID.prefix]: 'tunnel_group',
  [FAILOVER_BACKEND_ID.prefix]: 'failover',
  [WEIGHTED_BACKEND_ID.prefix]: 'weighted',
  [HTTP_RESPONSE_BACKEND_ID.prefix]: 'http_response',
  [STATIC_BACKEND_ID.prefix]: 'static',
};

const API_BASE = 'https://api.ngrok.com';

/** A backend named by its bare id (failover, weighted): checked, its uri built from its kind. */
function backendRef(id: unknown, where: string): Ref {
  const kind = BACKEND_KINDS.find((k) => typeof id === 'string' && hasPrefixOf(id, k));
  if (kind === undefined) throw badResponse(`${where} is not a backend id`);
  return { id: id as string, uri: `${API_BASE}/backends/${SEGMENT[kind.prefix]}/${id as string}` };
}

const backend = (o: Json, where: string, kind: IdKindSpec): Backend => ({
  id: requiredId(o, 'id', where, kind),
  description: present(o, 'description', where),
  metadata: present(o, 'metadata', where),
  createdAt: filled(o, 'created_at', where),
});

/** An object of string to string as name/value pairs sorted by name (labels, headers). */
function pairs(v: unknown, where: string): { name: string; value: string }[] {
  if (v === undefined || v === null) return [];
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(object(v, where))) {
    if (typeof value !== 'string') throw badResponse(`${where} holds a non-string value`);
    out.push({ name, value });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function list(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badResponse(`${where} is not a list`);
  return v;
}

function parseTunnelGroup(v: unknown): TunnelGroupBackend {
  const where = 'tunnel_group_backend';
  const o = object(v, where);
  return {
    ...backend(o, where, TUNNEL_GROUP_BACKEND_ID),
    labels: pairs(o.labels, `${where}.labels`),
    tunnels: list(o.tunnels, `${where}.tunnels`).map((t, i) => ref(t, `${where}.tunnels[${i}]`, TUNNEL_ID)),
  };
}

function parseFailover(v: unknown): FailoverBackend {
  const where = 'failover_backend';
  const o = object(v, where);
  return {
    ...backend(o, where, FAILOVER_BACKEND_ID),
    backends: list(o.backends, `${where}.backends`).map((id, i) => backendRef(id, `${where}.backends[${i}]`)),
  };
}

function parseWeighted(v: unknown): WeightedBackend {
  const where = 'weighted_backend';
  const o = object(v, where);
  const weights =
    o.backends === undefined || o.backends === null ? {} : object(o.backends, `${where}.backends`);
  const entries = Object.entries(weights).map(([id, weight]) => {
    if (typeof weight !== 'number' || !Number.isInteger(weight))
      throw badResponse(`${where}.backends holds a weight that is not an integer`);
    return { backend: backendRef(id, `${where}.backends`), weight };
  });
  return {
    ...backend(o, where, WEIGHTED_BACKEND_ID),
    backends: entries.sort((a, b) =>
      a.backend.id < b.backend.id ? -1 : a.backend.id > b.backend.id ? 1 : 0,
    ),
  };
}

function parseHttpResponse(v: unknown): HttpResponseBackend {
  const where = 'http_response_backend';
  const o = object(v, where);
  const status = o.status_code;
  if (typeof status !== 'number' || !Number.isInteger(status))
    throw badResponse(`${where}.status_code is missing`);
  return {
    ...backend(o, where, HTTP_RESPONSE_BACKEND_ID),
    statusCode: status,
    body: present(o, 'body', where),
    headers: pairs(o.headers, `${where}.headers`),
  };
}

function parseStatic(v: unknown): StaticBackend {
  const where = 'static_backend';
  const o = object(v, where);
  const tls = o.tls === undefined || o.tls === null ? {} : object(o.tls, `${where}.tls`);
  if (tls.enabled !== undefined && typeof tls.enabled !== 'boolean')
    throw badResponse(`${where}.tls.enabled is not a boolean`);
  return {
    ...backend(o, where, STATIC_BACKEND_ID),
    address: filled(o, 'address', where),
    tlsEnabled: tls.enabled === true,
  };
}

/** What the five descriptors share: their list key, their reads. */
const BACKEND = { listKey: 'backends', ...FETCHED_EACH } as const;

export const TUNNEL_GROUP_BACKEND = {
  ...TUNNEL_GROUP_BACKEND_ID,
  ...BACKEND,
  typeName: 'TunnelGroupBackend',
  path: ['backends', 'tunnel_group'],
  routes: { listTunnelGroupBackends: LIST_ROUTE, getTunnelGroupBackend: GET_ROUTE },
  list: 'listTunnelGroupBackends',
  get: 'getTunnelGroupBackend',
  parse: parseTunnelGroup,
} as const satisfies Resource<TunnelGroupBackend>;

export const FAILOVER_BACKEND = {
  ...FAILOVER_BACKEND_ID,
  ...BACKEND,
  typeName: 'FailoverBackend',
  path: ['backends', 'failover'],
  routes: { listFailoverBackends: LIST_ROUTE, getFailoverBackend: GET_ROUTE },
  list: 'listFailoverBackends',
  get: 'getFailoverBackend',
  parse: parseFailover,
} as const satisfies Resource<FailoverBackend>;

export const WEIGHTED_BACKEND = {
  ...WEIGHTED_BACKEND_ID,
  ...BACKEND,
  typeName: 'WeightedBackend',
  path: ['backends', 'weighted'],
  routes: { listWeightedBackends: LIST_ROUTE, getWeightedBackend: GET_ROUTE },
  list: 'listWeightedBackends',
  get: 'getWeightedBackend',
  parse: parseWeighted,
} as const satisfies Resource<WeightedBackend>;

export const HTTP_RESPONSE_BACKEND = {
  ...HTTP_RESPONSE_BACKEND_ID,
  ...BACKEND,
  typeName: 'HttpResponseBackend',
  path: ['backends', 'http_response'],
  routes: { listHttpResponseBackends: LIST_ROUTE, getHttpResponseBackend: GET_ROUTE },
  list: 'listHttpResponseBackends',
  get: 'getHttpResponseBackend',
  parse: parseHttpResponse,
} as const satisfies Resource<HttpResponseBackend>;

export const STATIC_BACKEND = {
  ...STATIC_BACKEND_ID,
  ...BACKEND,
  typeName: 'StaticBackend',
  path: ['backends', 'static'],
  routes: { listStaticBackends: LIST_ROUTE, getStaticBackend: GET_ROUTE },
  list: 'listStaticBackends',
  get: 'getStaticBackend',
  parse: parseStatic,
} as const satisfies Resource<StaticBackend>;
