// Every kind of ngrok id the gateway knows: its prefix and how a message names one. The one place a
// prefix is written; a kind the schema serves adds its descriptor in kinds/ on top of its row here
// (kept apart so that one kind's JSON reader can check the ids of another without an import circle).
import type { IdKindSpec } from './resource';

export const TUNNEL_ID = { kind: 'tunnel', prefix: 'tn', noun: 'tunnel' } as const;
export const TUNNEL_SESSION_ID = { kind: 'tunnelSession', prefix: 'ts', noun: 'tunnel session' } as const;
export const ENDPOINT_ID = { kind: 'endpoint', prefix: 'ep', noun: 'endpoint' } as const;
export const RESERVED_DOMAIN_ID = { kind: 'reservedDomain', prefix: 'rd', noun: 'reserved domain' } as const;
export const RESERVED_ADDRESS_ID = {
  kind: 'reservedAddress',
  prefix: 'ra',
  noun: 'reserved address',
} as const;

/** The kinds of the account graph's second step (issue 39): known by prefix, not served yet. */
const EDGE_KINDS = [
  { kind: 'httpsEdge', prefix: 'edghts', noun: 'HTTPS edge' },
  { kind: 'httpsEdgeRoute', prefix: 'edghtsrt', noun: 'HTTPS edge route' },
] as const;

/** The five kinds of backend an edge route's module may name. */
export const BACKEND_KINDS = [
  { kind: 'tunnelGroupBackend', prefix: 'bkdtg', noun: 'tunnel group backend' },
  { kind: 'failoverBackend', prefix: 'bkdfo', noun: 'failover backend' },
  { kind: 'weightedBackend', prefix: 'bkdwd', noun: 'weighted backend' },
  { kind: 'httpResponseBackend', prefix: 'bkdhr', noun: 'HTTP response backend' },
  { kind: 'staticBackend', prefix: 'bkdsc', noun: 'static backend' },
] as const satisfies readonly IdKindSpec[];

export const ID_KIND_SPECS = [
  TUNNEL_ID,
  TUNNEL_SESSION_ID,
  ENDPOINT_ID,
  RESERVED_DOMAIN_ID,
  RESERVED_ADDRESS_ID,
  ...EDGE_KINDS,
  ...BACKEND_KINDS,
] as const satisfies readonly IdKindSpec[];

export type IdKind = (typeof ID_KIND_SPECS)[number]['kind'];
