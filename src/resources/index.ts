// The resource kinds of the ngrok API the gateway serves, as one table: each kind's descriptor
// (kinds/), and what the rest of the gateway reads off it. Adding a kind: README.md.
import { BACKEND_MODULE } from './kinds/backend-module';
import {
  FAILOVER_BACKEND,
  HTTP_RESPONSE_BACKEND,
  STATIC_BACKEND,
  TUNNEL_GROUP_BACKEND,
  WEIGHTED_BACKEND,
} from './kinds/backends';
import { CREDENTIAL } from './kinds/credential';
import { ENDPOINT } from './kinds/endpoint';
import { HTTPS_EDGE } from './kinds/https-edge';
import { RESERVED_ADDRESS, RESERVED_DOMAIN } from './kinds/reservations';
import { TLS_CERTIFICATE } from './kinds/tls-certificate';
import { TUNNEL } from './kinds/tunnel';
import { TUNNEL_SESSION } from './kinds/tunnel-session';
import type { Resource } from './resource';

export type { Ref } from './json';
export { BACKEND_MODULE, type BackendModule } from './kinds/backend-module';
export {
  FAILOVER_BACKEND,
  type FailoverBackend,
  HTTP_RESPONSE_BACKEND,
  type HttpHeader,
  type HttpResponseBackend,
  MOST_BACKENDS_PER_BACKEND,
  MOST_BACKENDS_PER_TUNNEL,
  MOST_TUNNELS_PER_GROUP,
  STATIC_BACKEND,
  type StaticBackend,
  TUNNEL_GROUP_BACKEND,
  type TunnelGroupBackend,
  WEIGHTED_BACKEND,
  type WeightedBackend,
  type WeightedBackendEntry,
} from './kinds/backends';
export { CREDENTIAL, type Credential } from './kinds/credential';
export { ENDPOINT, type Endpoint } from './kinds/endpoint';
export { HTTPS_EDGE, type HttpsEdge, type HttpsEdgeRoute, MOST_ROUTES_PER_EDGE } from './kinds/https-edge';
export {
  RESERVED_ADDRESS,
  RESERVED_DOMAIN,
  type ReservedAddress,
  type ReservedDomain,
} from './kinds/reservations';
export { TLS_CERTIFICATE, type TlsCertificate } from './kinds/tls-certificate';
export { TUNNEL, type Tunnel, type TunnelLabel, type TunnelProtocol } from './kinds/tunnel';
export { TUNNEL_SESSION, type TunnelSession } from './kinds/tunnel-session';
export type { Fetching, Method, Resource } from './resource';

/** The five kinds of backend, in the order of BACKEND_KINDS. */
export const BACKENDS = [
  TUNNEL_GROUP_BACKEND,
  FAILOVER_BACKEND,
  WEIGHTED_BACKEND,
  HTTP_RESPONSE_BACKEND,
  STATIC_BACKEND,
] as const;

/** The kinds the schema serves as nodes (node, nodes, Ref.node, a by-id field and a list each). */
export const NODE_RESOURCES = [
  TUNNEL,
  ENDPOINT,
  TUNNEL_SESSION,
  RESERVED_DOMAIN,
  RESERVED_ADDRESS,
  HTTPS_EDGE,
  ...BACKENDS,
  CREDENTIAL,
  TLS_CERTIFICATE,
] as const;

/** Every described kind, nodes and the rest: their routes are the upstream operations. */
export const DESCRIBED = [...NODE_RESOURCES, BACKEND_MODULE] as const;

export type NodeResource = (typeof NODE_RESOURCES)[number];
export type NodeKind = NodeResource['kind'];

const BY_KIND = new Map<string, Resource>(NODE_RESOURCES.map((r) => [r.kind, r as Resource]));

/** The descriptor of a node kind. */
export const resourceOfKind = (kind: NodeKind): Resource => BY_KIND.get(kind) as Resource;

/** The upstream operations; metrics and logs name routes by these, never by ids. */
export type RouteName = RoutesOf<(typeof DESCRIBED)[number]>;

/** Each descriptor's route names, one union for all (distributed over the descriptors). */
type RoutesOf<D> = D extends { readonly routes: infer R } ? keyof R & string : never;
