// The stand-in's routes: which operation a method and path name (unknown ones answer 404), what
// each match carries (ids from the path), and the guards that send a match to its room.
import type { AccountGraphCollection } from '../account-graph/types';
import type { RouteName } from '../types';

export type EndpointRoute =
  | { name: 'listEndpoints' }
  | { name: 'createEndpoint' }
  | { name: 'getEndpoint' | 'updateEndpoint' | 'deleteEndpoint'; endpointId: string };

/** The commands an online agent takes: POST /tunnel_sessions/{id}/<command>. */
const AGENT_COMMANDS = {
  restart: 'restartTunnelSession',
  stop: 'stopTunnelSession',
  update: 'updateTunnelSession',
} as const;
export type AgentCommandRoute = (typeof AGENT_COMMANDS)[keyof typeof AGENT_COMMANDS];

/** The account-graph lists: their routes and the id prefix of their items. */
export const ACCOUNT_GRAPH_LISTS = {
  tunnel_sessions: { list: 'listTunnelSessions', get: 'getTunnelSession', prefix: 'ts' },
  reserved_domains: { list: 'listReservedDomains', get: 'getReservedDomain', prefix: 'rd' },
  reserved_addrs: { list: 'listReservedAddrs', get: 'getReservedAddr', prefix: 'ra' },
  credentials: { list: 'listCredentials', get: 'getCredential', prefix: 'cr' },
  tls_certificates: { list: 'listTlsCertificates', get: 'getTlsCertificate', prefix: 'cert' },
} as const;
type GraphList = (typeof ACCOUNT_GRAPH_LISTS)[AccountGraphCollection];

export type AccountGraphRoute =
  | { name: GraphList['list']; collection: AccountGraphCollection }
  | { name: GraphList['get']; collection: AccountGraphCollection; id: string }
  | { name: AgentCommandRoute; id: string };

export type TunnelRoute = { name: 'listTunnels' } | { name: 'getTunnel'; tunnelId: string };

export type BackendModuleRoute = {
  name: 'replaceBackend' | 'getBackend' | 'deleteBackend';
  edgeId: string;
  routeId: string;
};

/** The five backend kinds by their path segment under /backends: their routes and id prefix. */
export const BACKEND_LISTS = {
  tunnel_group: { list: 'listTunnelGroupBackends', get: 'getTunnelGroupBackend', prefix: 'bkdtg' },
  failover: { list: 'listFailoverBackends', get: 'getFailoverBackend', prefix: 'bkdfo' },
  weighted: { list: 'listWeightedBackends', get: 'getWeightedBackend', prefix: 'bkdwd' },
  http_response: { list: 'listHttpResponseBackends', get: 'getHttpResponseBackend', prefix: 'bkdhr' },
  static: { list: 'listStaticBackends', get: 'getStaticBackend', prefix: 'bkdsc' },
} as const;
export type BackendSegment = keyof typeof BACKEND_LISTS;
type BackendList = (typeof BACKEND_LISTS)[BackendSegment];

/** GET /edges/https[/{id}] and GET /backends/<kind>[/{id}]: read-only here, as since Edges shut down. */
export type EdgeRoute =
  | { name: 'listHttpsEdges' }
  | { name: 'getHttpsEdge'; id: string }
  | { name: BackendList['list']; kind: BackendSegment }
  | { name: BackendList['get']; kind: BackendSegment; id: string };

export type RouteMatch = TunnelRoute | AccountGraphRoute | BackendModuleRoute | EndpointRoute | EdgeRoute;

export function isEdgeRoute(match: RouteMatch): match is EdgeRoute {
  return match.name === 'listHttpsEdges' || match.name === 'getHttpsEdge' || 'kind' in match;
}

const isBackendSegment = (name: string | undefined): name is BackendSegment =>
  name !== undefined && Object.hasOwn(BACKEND_LISTS, name);

function matchEdges(method: string, segments: readonly string[]): EdgeRoute | undefined {
  const [first, second, third] = segments;
  if (method !== 'GET' || segments.length > 3) return undefined;
  if (first === 'edges' && second === 'https') {
    if (segments.length === 2) return { name: 'listHttpsEdges' };
    if (third !== undefined) return { name: 'getHttpsEdge', id: third };
  }
  if (first === 'backends' && isBackendSegment(second)) {
    if (segments.length === 2) return { name: BACKEND_LISTS[second].list, kind: second };
    if (third !== undefined) return { name: BACKEND_LISTS[second].get, kind: second, id: third };
  }
  return undefined;
}

const BACKEND_ROUTE_BY_METHOD: Readonly<Record<string, RouteName>> = {
  PUT: 'replaceBackend',
  GET: 'getBackend',
  DELETE: 'deleteBackend',
};
const ENDPOINTS_ROUTE_BY_METHOD: Readonly<Record<string, 'listEndpoints' | 'createEndpoint'>> = {
  GET: 'listEndpoints',
  POST: 'createEndpoint',
};
const ENDPOINT_ROUTE_BY_METHOD: Readonly<
  Record<string, 'getEndpoint' | 'updateEndpoint' | 'deleteEndpoint'>
> = { GET: 'getEndpoint', PATCH: 'updateEndpoint', DELETE: 'deleteEndpoint' };

export function isEndpointRoute(match: RouteMatch): match is EndpointRoute {
  return match.name.endsWith('Endpoint') || match.name === 'listEndpoints';
}

export function isTunnelRoute(match: RouteMatch): match is TunnelRoute {
  return match.name === 'listTunnels' || match.name === 'getTunnel';
}

export function isAccountGraphRoute(match: RouteMatch): match is AccountGraphRoute {
  return 'collection' in match || match.name.endsWith('TunnelSession');
}

const isCollection = (name: string | undefined): name is AccountGraphCollection =>
  name !== undefined && Object.hasOwn(ACCOUNT_GRAPH_LISTS, name);

/** GET /tunnel_sessions[/{id}], /reserved_domains[/{id}], /reserved_addrs[/{id}], POST …/{id}/<command>. */
function matchAccountGraph(method: string, segments: readonly string[]): AccountGraphRoute | undefined {
  const [collection, id, command] = segments;
  if (!isCollection(collection)) return undefined;
  const routes = ACCOUNT_GRAPH_LISTS[collection];
  if (method === 'GET' && segments.length === 1) return { name: routes.list, collection };
  if (method === 'GET' && segments.length === 2 && id !== undefined)
    return { name: routes.get, collection, id };
  const name = command !== undefined && Object.hasOwn(AGENT_COMMANDS, command) ? command : undefined;
  if (method === 'POST' && collection === 'tunnel_sessions' && segments.length === 3 && id && name) {
    return { name: AGENT_COMMANDS[name as keyof typeof AGENT_COMMANDS], id };
  }
  return undefined;
}

/** Path and query of a request target, taken literally (`new URL` would read `//x/tunnels` as a host). */
export function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  const mark = target.indexOf('?');
  return mark < 0
    ? { pathname: target, query: new URLSearchParams() }
    : { pathname: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
}

function decodeSegments(pathname: string): string[] | undefined {
  try {
    const segments = pathname.split('/').slice(1).map(decodeURIComponent);
    return segments.some((segment) => segment === '') ? undefined : segments;
  } catch {
    return undefined; // a malformed percent-escape names no resource
  }
}

/**
 * The operation a method and path name, or undefined. A wrong method on a known path is also
 * undefined: the real API answers it with 404, not 405.
 */
export function matchRoute(method: string, pathname: string): RouteMatch | undefined {
  const segments = decodeSegments(pathname);
  if (segments === undefined) return undefined;
  const [first, second, third, fourth, fifth, sixth] = segments;
  const graph = matchAccountGraph(method, segments) ?? matchEdges(method, segments);
  if (graph !== undefined) return graph;
  if (first === 'tunnels' && method === 'GET') {
    if (segments.length === 1) return { name: 'listTunnels' };
    if (segments.length === 2 && second !== undefined) return { name: 'getTunnel', tunnelId: second };
  }
  if (first === 'endpoints') {
    const collection = segments.length === 1 ? ENDPOINTS_ROUTE_BY_METHOD[method] : undefined;
    if (collection === 'listEndpoints' || collection === 'createEndpoint') return { name: collection };
    const single = segments.length === 2 ? ENDPOINT_ROUTE_BY_METHOD[method] : undefined;
    if (single !== undefined && second !== undefined) return { name: single, endpointId: second };
  }
  if (
    segments.length === 6 &&
    first === 'edges' &&
    second === 'https' &&
    fourth === 'routes' &&
    sixth === 'backend' &&
    third !== undefined &&
    fifth !== undefined
  ) {
    const name = BACKEND_ROUTE_BY_METHOD[method];
    if (name === 'replaceBackend' || name === 'getBackend' || name === 'deleteBackend') {
      return { name, edgeId: third, routeId: fifth };
    }
  }
  return undefined;
}
