// The resource kinds of the ngrok API the gateway serves, as one table: each kind's descriptor
// (kinds/), and what the rest of the gateway reads off it. Adding a kind: README.md.
import { BACKEND_MODULE } from './kinds/backend-module';
import { ENDPOINT } from './kinds/endpoint';
import { RESERVED_ADDRESS, RESERVED_DOMAIN } from './kinds/reservations';
import { TUNNEL } from './kinds/tunnel';
import { TUNNEL_SESSION } from './kinds/tunnel-session';
import type { Resource } from './resource';

export type { Ref } from './json';
export { BACKEND_MODULE, type BackendModule } from './kinds/backend-module';
export { ENDPOINT, type Endpoint } from './kinds/endpoint';
export {
  RESERVED_ADDRESS,
  RESERVED_DOMAIN,
  type ReservedAddress,
  type ReservedDomain,
} from './kinds/reservations';
export { TUNNEL, type Tunnel, type TunnelLabel, type TunnelProtocol } from './kinds/tunnel';
export { TUNNEL_SESSION, type TunnelSession } from './kinds/tunnel-session';
export type { Fetching, Method, Resource } from './resource';

/** The kinds the schema serves as nodes (node, nodes, Ref.node, a by-id field and a list each). */
export const NODE_RESOURCES = [TUNNEL, ENDPOINT, TUNNEL_SESSION, RESERVED_DOMAIN, RESERVED_ADDRESS] as const;

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
