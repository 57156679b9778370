// The account graph as the stand-in holds it: online agents (tunnel sessions) and the account's
// reserved domains and TCP addresses, in the upstream's own field names (uris are derived on output).

/** A reference as seeds give it (the Ref of ../types.ts, spelled out: that file imports this one). */
interface SeedRef {
  id: string;
  uri: string;
}

/** The lists of the account graph, by their path (and JSON key). */
export type AccountGraphCollection =
  | 'tunnel_sessions'
  | 'reserved_domains'
  | 'reserved_addrs'
  | 'credentials'
  | 'tls_certificates';

/** A tunnel session (an online agent) as GET /tunnel_sessions sends it, less its derived `uri`. */
export interface UpstreamTunnelSession {
  /** `ts_` + 27 base62 characters. */
  id: string;
  agent_version?: string;
  /** The credential (cr_…) the agent authenticated with. */
  credential?: SeedRef;
  ip?: string;
  /**
   * The agent's metadata. A JSON object with an `update` key (see AgentUpdateState) chooses how the
   * stand-in answers POST …/update for this session.
   */
  metadata?: string;
  /** linux, darwin, windows, …: restart is refused on windows. */
  os?: string;
  region?: string;
  started_at: string;
  /** ngrok/v2 or ssh. */
  transport?: string;
}

/**
 * What POST /tunnel_sessions/{id}/update meets: an update to apply (204), or one of the provider's
 * refusals (400 ERR_NGROK_806): none available, disabled in the agent's configuration, one in
 * progress, or one applied and awaiting a restart.
 */
export type AgentUpdateState = 'available' | 'none' | 'disabled' | 'in-progress' | 'awaiting-restart';

/** A reserved domain as GET /reserved_domains sends it, less its derived `uri`. */
export interface UpstreamReservedDomain {
  /** `rd_` + 27 base62 characters. */
  id: string;
  created_at: string;
  description?: string;
  metadata?: string;
  /** The hostname; an endpoint on this host refers to the reservation as its `domain`. */
  domain: string;
  region?: string;
  cname_target?: string;
  certificate?: SeedRef;
}

/** A reserved TCP address as GET /reserved_addrs sends it, less its derived `uri`. */
export interface UpstreamReservedAddr {
  /** `ra_` + 27 base62 characters. */
  id: string;
  created_at: string;
  description?: string;
  metadata?: string;
  /** host:port; an endpoint on this host and port refers to the reservation as its `tcp_addr`. */
  addr: string;
  region?: string;
}

/** A tunnel credential as GET /credentials sends it, less its derived `uri` (its token is never sent). */
export interface UpstreamCredential {
  /** `cr_` + 27 base62 characters. */
  id: string;
  created_at: string;
  description?: string;
  metadata?: string;
  /** Bind rules, e.g. bind:*.example.com; empty when unrestricted. */
  acl: string[];
  owner_id?: string;
}

/** A TLS certificate as GET /tls_certificates sends it, less its derived `uri`. */
export interface UpstreamTlsCertificate {
  /** `cert_` + 27 base62 characters. */
  id: string;
  created_at: string;
  description?: string;
  metadata?: string;
  /** PEM text; the gateway never reads it. */
  certificate_pem: string;
  subject_common_name: string;
  subject_alternative_names: { dns_names: string[]; ips: string[] };
  issued_at?: string;
  not_before: string;
  not_after: string;
  key_usages?: string[];
  extended_key_usages?: string[];
  private_key_type?: string;
  issuer_common_name?: string;
  serial_number?: string;
}
