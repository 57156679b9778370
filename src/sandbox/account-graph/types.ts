// The account graph as the stand-in holds it: online agents (tunnel sessions) and the account's
// reserved domains and TCP addresses, in the upstream's own field names (uris are derived on output).

/** A reference as seeds give it (the Ref of ../types.ts, spelled out: that file imports this one). */
interface SeedRef {
  id: string;
  uri: string;
}

/** The three lists of the account graph, by their path (and JSON key). */
export type AccountGraphCollection = 'tunnel_sessions' | 'reserved_domains' | 'reserved_addrs';

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
