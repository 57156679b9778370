// Where each kind of id lives in the API, from the contract's table. Ref `uri`s are derived from
// the id and the public base, so seeds never have to know the stand-in's address.
import type { Ref } from '../types';

const COLLECTION_BY_PREFIX: Readonly<Record<string, string>> = {
  tn: '/tunnels',
  ts: '/tunnel_sessions',
  ep: '/endpoints',
  rd: '/reserved_domains',
  ra: '/reserved_addrs',
  cr: '/credentials',
  cert: '/tls_certificates',
  edghts: '/edges/https',
  bkdtg: '/backends/tunnel_group',
  bkdfo: '/backends/failover',
  bkdwd: '/backends/weighted',
  bkdhr: '/backends/http_response',
  bkdsc: '/backends/static',
};

/** Prefixes of the five backend kinds: the only ids a route's backend module accepts. */
export const BACKEND_PREFIXES = ['bkdtg', 'bkdfo', 'bkdwd', 'bkdhr', 'bkdsc'] as const;
export type BackendPrefix = (typeof BACKEND_PREFIXES)[number];

function prefixOf(id: string): string {
  const underscore = id.indexOf('_');
  return underscore < 0 ? '' : id.slice(0, underscore);
}

export function isBackendPrefix(prefix: string): prefix is BackendPrefix {
  return (BACKEND_PREFIXES as readonly string[]).includes(prefix);
}

/** The canonical URI of a resource, or undefined for a prefix the table does not know. */
export function resourceUri(base: string, id: string): string | undefined {
  const collection = COLLECTION_BY_PREFIX[prefixOf(id)];
  return collection === undefined ? undefined : `${base}${collection}/${id}`;
}

/** A Ref whose uri follows the id; a Ref of an unknown kind keeps the uri it was seeded with. */
export function ref(base: string, seeded: Ref): Ref {
  return { id: seeded.id, uri: resourceUri(base, seeded.id) ?? seeded.uri };
}
