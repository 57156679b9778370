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

export const HTTPS_EDGE_ID = { kind: 'httpsEdge', prefix: 'edghts', noun: 'HTTPS edge' } as const;
/** A route has no node of its own: it comes with its edge. */
export const HTTPS_EDGE_ROUTE_ID = {
  kind: 'httpsEdgeRoute',
  prefix: 'edghtsrt',
  noun: 'HTTPS edge route',
} as const;
export const CREDENTIAL_ID = { kind: 'credential', prefix: 'cr', noun: 'credential' } as const;
export const TLS_CERTIFICATE_ID = {
  kind: 'tlsCertificate',
  prefix: 'cert',
  noun: 'TLS certificate',
} as const;

/** The five kinds of backend an edge route's module may name. */
export const TUNNEL_GROUP_BACKEND_ID = {
  kind: 'tunnelGroupBackend',
  prefix: 'bkdtg',
  noun: 'tunnel group backend',
} as const;
export const FAILOVER_BACKEND_ID = {
  kind: 'failoverBackend',
  prefix: 'bkdfo',
  noun: 'failover backend',
} as const;
export const WEIGHTED_BACKEND_ID = {
  kind: 'weightedBackend',
  prefix: 'bkdwd',
  noun: 'weighted backend',
} as const;
export const HTTP_RESPONSE_BACKEND_ID = {
  kind: 'httpResponseBackend',
  prefix: 'bkdhr',
  noun: 'HTTP response backend',
} as const;
export const STATIC_BACKEND_ID = { kind: 'staticBackend', prefix: 'bkdsc', noun: 'static backend' } as const;

export const BACKEND_KINDS = [
  TUNNEL_GROUP_BACKEND_ID,
  FAILOVER_BACKEND_ID,
  WEIGHTED_BACKEND_ID,
  HTTP_RESPONSE_BACKEND_ID,
  STATIC_BACKEND_ID,
] as const satisfies readonly IdKindSpec[];

export const ID_KIND_SPECS = [
  TUNNEL_ID,
  TUNNEL_SESSION_ID,
  ENDPOINT_ID,
  RESERVED_DOMAIN_ID,
  RESERVED_ADDRESS_ID,
  HTTPS_EDGE_ID,
  HTTPS_EDGE_ROUTE_ID,
  ...BACKEND_KINDS,
  CREDENTIAL_ID,
  TLS_CERTIFICATE_ID,
] as const satisfies readonly IdKindSpec[];

export type IdKind = (typeof ID_KIND_SPECS)[number]['kind'];
