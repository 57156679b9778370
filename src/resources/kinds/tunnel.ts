// Tunnels: an online tunnel as the upstream sends it, read into the domain's shape, and the kind's
// descriptor (GET /tunnels, newest first with limit/before_id, no filter; GET /tunnels/{id}).

import { BACKEND_KINDS, ENDPOINT_ID, TUNNEL_ID, TUNNEL_SESSION_ID } from '../id-kinds';
import {
  badResponse,
  type Json,
  object,
  optionalRef,
  optionalString,
  type Ref,
  ref,
  requiredId,
  requiredString,
} from '../json';
import { GET_ROUTE, LIST_ROUTE, type Resource } from '../resource';

/** The protocols of an agent tunnel that the gateway knows. */
export type TunnelProtocol = 'http' | 'https' | 'tcp' | 'tls';
const PROTOCOLS: ReadonlySet<string> = new Set<TunnelProtocol>(['http', 'https', 'tcp', 'tls']);

export interface TunnelLabel {
  readonly name: string;
  readonly value: string;
}

export interface Tunnel {
  readonly id: string;
  readonly publicUrl?: string;
  readonly startedAt: string;
  readonly metadata?: string;
  /** Absent for a backend tunnel, and for a protocol the gateway does not know. */
  readonly proto?: TunnelProtocol;
  readonly region: string;
  readonly tunnelSession: Ref;
  readonly endpoint?: Ref;
  /** A backend tunnel's labels, sorted by name. */
  readonly labels?: readonly TunnelLabel[];
  readonly backends?: readonly Ref[];
  readonly forwardsTo?: string;
}

function labels(v: unknown): TunnelLabel[] | undefined {
  if (v === undefined || v === null) return undefined;
  const o: Json = object(v, 'tunnel.labels');
  const out: TunnelLabel[] = [];
  for (const [name, value] of Object.entries(o)) {
    if (typeof value !== 'string') throw badResponse('tunnel.labels holds a non-string value');
    out.push({ name, value });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function protocol(o: Json): TunnelProtocol | undefined {
  const proto = optionalString(o, 'proto', 'tunnel');
  return proto !== undefined && PROTOCOLS.has(proto) ? (proto as TunnelProtocol) : undefined;
}

/** The spec says one Ref, the real API sends an array: accept both. */
function backends(v: unknown): Ref[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map((item, i) => ref(item, `tunnel.backends[${i}]`, BACKEND_KINDS));
  return [ref(v, 'tunnel.backends', BACKEND_KINDS)];
}

function parseTunnel(v: unknown): Tunnel {
  const o = object(v, 'tunnel');
  return {
    id: requiredId(o, 'id', 'tunnel', TUNNEL_ID),
    publicUrl: optionalString(o, 'public_url', 'tunnel'),
    startedAt: requiredString(o, 'started_at', 'tunnel'),
    metadata: optionalString(o, 'metadata', 'tunnel'),
    proto: protocol(o),
    region: requiredString(o, 'region', 'tunnel'),
    tunnelSession: ref(o.tunnel_session, 'tunnel.tunnel_session', TUNNEL_SESSION_ID),
    endpoint: optionalRef(o.endpoint, 'tunnel.endpoint', ENDPOINT_ID),
    labels: labels(o.labels),
    backends: backends(o.backends),
    forwardsTo: optionalString(o, 'forwards_to', 'tunnel'),
  };
}

export const TUNNEL = {
  ...TUNNEL_ID,
  typeName: 'Tunnel',
  path: ['tunnels'],
  routes: { listTunnels: LIST_ROUTE, getTunnel: GET_ROUTE },
  list: 'listTunnels',
  get: 'getTunnel',
  parse: parseTunnel,
  filtersById: false,
  byId: 'get-each',
  byReference: 'list-then-get',
  batch: 'next-tick',
} as const satisfies Resource<Tunnel>;
