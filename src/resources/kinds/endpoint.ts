// Endpoints: an endpoint as the upstream sends it, read into the domain's shape (fields that do not
// apply arrive absent or empty, "": both read as undefined), and the kind's descriptor. The gateway
// reads endpoints by id through the filtered list, never GET /endpoints/{id}.

import { ENDPOINT_ID, TUNNEL_ID, TUNNEL_SESSION_ID } from '../id-kinds';
import {
  badResponse,
  type Json,
  object,
  optionalRef,
  optionalString,
  type Ref,
  requiredId,
  requiredString,
} from '../json';
import { GET_ROUTE, LIST_ROUTE, type Resource } from '../resource';

export interface Endpoint {
  readonly id: string;
  readonly url: string;
  /** The upstream's type as sent: agent, cloud, or a newer one. */
  readonly type: string;
  readonly bindings: readonly string[];
  readonly proto?: string;
  readonly hostport?: string;
  readonly region?: string;
  readonly createdAt: string;
  readonly updatedAt?: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly trafficPolicy?: string;
  readonly poolingEnabled: boolean;
  readonly upstreamUrl?: string;
  readonly domain?: Ref;
  readonly tcpAddr?: Ref;
  readonly tunnel?: Ref;
  readonly tunnelSession?: Ref;
  readonly principal?: Ref;
}

const WHERE = 'endpoint';

/** An optional string where "" means "does not apply". */
const present = (o: Json, key: string): string | undefined => optionalString(o, key, WHERE) || undefined;

function bindings(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((b) => typeof b !== 'string'))
    throw badResponse('endpoint.bindings is not a list of strings');
  return v as string[];
}

function poolingEnabled(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw badResponse('endpoint.pooling_enabled is not a boolean');
  return v;
}

function parseEndpoint(v: unknown): Endpoint {
  const o = object(v, WHERE);
  const url = present(o, 'url') ?? present(o, 'public_url');
  if (url === undefined) throw badResponse('endpoint.url is missing');
  return {
    id: requiredId(o, 'id', WHERE, ENDPOINT_ID),
    url,
    type: requiredString(o, 'type', WHERE),
    bindings: bindings(o.bindings),
    proto: present(o, 'proto') ?? present(o, 'scheme'),
    hostport: present(o, 'hostport'),
    region: present(o, 'region'),
    createdAt: requiredString(o, 'created_at', WHERE),
    updatedAt: present(o, 'updated_at'),
    description: present(o, 'description'),
    metadata: present(o, 'metadata'),
    trafficPolicy: present(o, 'traffic_policy'),
    poolingEnabled: poolingEnabled(o.pooling_enabled),
    upstreamUrl: present(o, 'upstream_url'),
    domain: optionalRef(o.domain, 'endpoint.domain', 'any'),
    tcpAddr: optionalRef(o.tcp_addr, 'endpoint.tcp_addr', 'any'),
    tunnel: optionalRef(o.tunnel, 'endpoint.tunnel', TUNNEL_ID),
    tunnelSession: optionalRef(o.tunnel_session, 'endpoint.tunnel_session', TUNNEL_SESSION_ID),
    principal: optionalRef(o.principal, 'endpoint.principal', 'any'),
  };
}

export const ENDPOINT = {
  ...ENDPOINT_ID,
  typeName: 'Endpoint',
  path: ['endpoints'],
  routes: {
    listEndpoints: LIST_ROUTE,
    getEndpoint: GET_ROUTE,
    createEndpoint: { method: 'POST', template: '' },
    updateEndpoint: { method: 'PATCH', template: '/{id}' },
    deleteEndpoint: { method: 'DELETE', template: '/{id}' },
  },
  list: 'listEndpoints',
  get: 'getEndpoint',
  parse: parseEndpoint,
  filtersById: true,
  byId: 'list-by-ids',
  byReference: 'list-by-ids',
  batch: 'next-tick',
} as const satisfies Resource<Endpoint>;
