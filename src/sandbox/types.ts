// Public types of the stand-in. The gateway's tests and benchmark are written against these.
import type {
  AccountGraphCollection,
  AgentUpdateState,
  UpstreamCredential,
  UpstreamReservedAddr,
  UpstreamReservedDomain,
  UpstreamTlsCertificate,
  UpstreamTunnelSession,
} from './account-graph/types';
import type { EdgeSeed, UpstreamBackend } from './edges/types';

export type { EdgeSeed, RouteSeed, UpstreamBackend } from './edges/types';

/**
 * The upstream operations; faults, latency and call counts are keyed by these names. The gateway
 * names them alike (upstream/call/request.ts): it may not import the stand-in, nor the stand-in it.
 */
export const ROUTE_NAMES = [
  'listTunnels',
  'getTunnel',
  'replaceBackend',
  'getBackend',
  'deleteBackend',
  'listEndpoints',
  'createEndpoint',
  'getEndpoint',
  'updateEndpoint',
  'deleteEndpoint',
  'listTunnelSessions',
  'getTunnelSession',
  'restartTunnelSession',
  'stopTunnelSession',
  'updateTunnelSession',
  'listReservedDomains',
  'getReservedDomain',
  'listReservedAddrs',
  'getReservedAddr',
  'listCredentials',
  'getCredential',
  'listTlsCertificates',
  'getTlsCertificate',
  'listHttpsEdges',
  'getHttpsEdge',
  'listTunnelGroupBackends',
  'getTunnelGroupBackend',
  'listFailoverBackends',
  'getFailoverBackend',
  'listWeightedBackends',
  'getWeightedBackend',
  'listHttpResponseBackends',
  'getHttpResponseBackend',
  'listStaticBackends',
  'getStaticBackend',
] as const;

export type RouteName = (typeof ROUTE_NAMES)[number];

export interface Ref {
  id: string;
  uri: string;
}

/** A tunnel exactly as the real API sends it (optional fields are absent, never null). */
export interface UpstreamTunnel {
  id: string;
  public_url?: string;
  started_at: string;
  metadata?: string;
  proto?: string;
  region: string;
  tunnel_session: Ref;
  endpoint?: Ref;
  labels?: Record<string, string>;
  backends?: Ref[];
  forwards_to: string;
}

/**
 * A cloud endpoint as an account holds it (and as seeds give it). On output, `public_url`, `proto`,
 * `scheme`, `host`, `port`, `hostport` and `uri` are derived from `url` and the id.
 */
export interface CloudEndpoint {
  /** `ep_` + 27 base62 characters; it sorts by creation time like every id. */
  id: string;
  /** Normalised: scheme://host, plus :port only when it is not the scheme's default. */
  url: string;
  created_at: string;
  /** Moves on every update; RFC 3339, with milliseconds when the stand-in wrote it. */
  updated_at: string;
  traffic_policy: string;
  /** One of public, internal (URLs ending in .internal), kubernetes. */
  bindings: string[];
  description?: string;
  metadata?: string;
  pooling_enabled?: boolean;
  principal?: Ref;
}

/** The fields a cloud endpoint is created with (POST /endpoints without `type`). */
export interface CloudEndpointInput {
  url: string;
  traffic_policy: string;
  description?: string;
  metadata?: string;
  /** Default ["internal"] for a URL ending in .internal, else ["public"]. */
  bindings?: string[];
  pooling_enabled?: boolean;
}

/** An endpoint as GET /endpoints and GET /endpoints/{id} send it; fields that do not apply are absent. */
export interface UpstreamEndpoint {
  id: string;
  /** Agent endpoints only: the tunnel's region. */
  region?: string;
  created_at: string;
  updated_at: string;
  public_url: string;
  proto: string;
  scheme: string;
  hostport: string;
  host: string;
  port: number;
  type: 'agent' | 'cloud';
  metadata?: string;
  description?: string;
  /** The reserved domain (rd_…) its host is on, when it is on one. */
  domain?: Ref;
  /** The reserved TCP address (ra_…) its host:port is on, when it is on one. */
  tcp_addr?: Ref;
  /** Agent endpoints only. */
  tunnel?: Ref;
  /** Agent endpoints only: the tunnel's forwards_to. */
  upstream_url?: string;
  url: string;
  principal?: Ref;
  /** Cloud endpoints only. */
  traffic_policy?: string;
  bindings: string[];
  /** Agent endpoints only. */
  tunnel_session?: Ref;
  uri: string;
  pooling_enabled: boolean;
}

/** One account's data. Ref `uri`s inside are ignored on output: the stand-in derives them from ids. */
export interface AccountSeed {
  tunnels?: UpstreamTunnel[];
  /**
   * Online agents. Absent: one per distinct `tunnel_session` of the tunnels (agentSessionsOf), so
   * every tunnel's session is listed; a tunnel added later brings its session when it is not listed.
   */
  tunnelSessions?: UpstreamTunnelSession[];
  reservedDomains?: UpstreamReservedDomain[];
  reservedAddrs?: UpstreamReservedAddr[];
  /** Tunnel credentials. Absent: one per distinct `credential` of the sessions (credentialsFor). */
  credentials?: UpstreamCredential[];
  /** TLS certificates. Absent: one per distinct `certificate` of the reserved domains (certificatesFor). */
  tlsCertificates?: UpstreamTlsCertificate[];
  /** Cloud endpoints; agent endpoints are not seeded, they follow the agent tunnels. */
  endpoints?: CloudEndpoint[];
  edges?: EdgeSeed[];
  /** Ids of existing backends (any bkd* kind); only these can be attached to a route. */
  backends?: string[];
  /** The fields of some of them (a backend without any gets its kind's defaults). */
  backendDetails?: UpstreamBackend[];
  /** The provider no longer serves this account edges: GET /edges/https[/{id}] answers 400 ERR_NGROK_7008. */
  edgesRetired?: boolean;
}

export type Fault =
  /** An error answer with the documented body shape (msg from the code's catalog entry, else the status text). */
  | { kind: 'status'; status: number; errorCode?: string; retryAfter?: number }
  /** 429 ERR_NGROK_226, with a Retry-After header when given. */
  | { kind: 'rateLimit'; retryAfter?: number }
  /** The request is processed, then the body is replaced by invalid JSON (status 200). */
  | { kind: 'malformedJson' }
  /** The request is processed, then the JSON body is cut in half (status 200, Content-Length of what is sent). */
  | { kind: 'truncatedJson' }
  /** A proxy's HTML error page: status 502, text/html, no operation id. */
  | { kind: 'html' }
  /** The request is processed; the answer keeps its body but says Content-Type: text/plain. */
  | { kind: 'wrongContentType' }
  /** The request is processed; a required field is removed from the body (see README for which). */
  | { kind: 'missingField' }
  /** A 200 JSON answer of `bytes` bytes, streamed; `chunked` sends it without a Content-Length. */
  | { kind: 'largeBody'; bytes: number; chunked?: boolean }
  /** The socket is destroyed without an answer. */
  | { kind: 'drop' }
  /** No answer until the client gives up or the stand-in closes. */
  | { kind: 'hang' }
  /** Answer normally; a placeholder to build sequences such as 500, 500, pass. */
  | { kind: 'pass' };

export interface SandboxOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** API key -> data. Default: { 'sandbox-key': demoData() }. */
  accounts?: Record<string, AccountSeed>;
  /** Per key, rolling window. Default { max: 120, windowMs: 60_000 }; false turns it off. */
  rateLimit?: { max: number; windowMs: number } | false;
  /** Cap on simultaneous in-flight requests per key (429 ERR_NGROK_225). Default false. */
  maxConcurrentPerKey?: number | false;
  /** Base of every `uri` and `next_page_uri`. Default: the stand-in's own URL. */
  publicBaseUrl?: string;
  /**
   * Edges were shut down on 2025-12-31: as the real API, PUT and DELETE of a backend module answer
   * 400 ERR_NGROK_7196 unless this is true (a demo or test of the seed's mutations). Default false.
   */
  edgesWritable?: boolean;
  /** What POST …/update meets for a session whose metadata names no `update` state. Default 'available'. */
  agentUpdate?: AgentUpdateState;
}

export interface Sandbox {
  /** e.g. 'http://127.0.0.1:40123' (no trailing slash). */
  readonly url: string;
  readonly keys: string[];
  /** Replace (or create) that account's data. */
  seed(key: string, data: AccountSeed): void;
  /** A copy of the account's current data. */
  account(key: string): AccountSeed;
  /**
   * Brings a tunnel online in that account: `tunnel`, or a generated one newer than every other
   * (it lists first). Returns the tunnel added.
   */
  addTunnel(key: string, tunnel?: UpstreamTunnel): UpstreamTunnel;
  /** Takes a tunnel offline (its agent endpoint goes with it); false when it was not online. */
  removeTunnel(key: string, id: string): boolean;
  /**
   * Creates a cloud endpoint as POST /endpoints would, with the same checks (an ApiError, whose
   * message is the 400's msg, when refused). Absent url or traffic_policy are generated. The new
   * endpoint is newer than every other (it lists first).
   */
  addEndpoint(key: string, input?: Partial<CloudEndpointInput>): CloudEndpoint;
  /** Deletes a cloud endpoint; false when it has none with that id (an agent endpoint goes with its tunnel). */
  removeEndpoint(key: string, id: string): boolean;
  /** Moves a cloud endpoint's updated_at (strictly later); undefined when it has none with that id. */
  touchEndpoint(key: string, id: string): CloudEndpoint | undefined;
  /** Every endpoint of the account, agent and cloud, as GET /endpoints lists them (all pages, newest first). */
  listEndpoints(key: string): UpstreamEndpoint[];
  /**
   * Every `everyMs` (default 3000) a tunnel comes online or goes offline (an agent with it when it
   * was the agent's last or first tunnel), and a cloud endpoint is created, touched or deleted, until
   * the returned stop is called.
   */
  churn(key: string, options?: { everyMs?: number; seed?: number }): () => void;
  /** Every item of one of the account-graph lists as GET serves it (all pages, newest first). */
  listed(key: string, collection: AccountGraphCollection): Record<string, unknown>[];
  /** Requests received for a route (all routes when omitted), faulted and rejected ones included. */
  calls(route?: RouteName, key?: string): number;
  /** Resets call counts and peak concurrency. */
  resetCalls(): void;
  /** Highest number of simultaneous in-flight requests seen since start or resetCalls (all keys when omitted). */
  peakConcurrency(key?: string): number;
  /** Queue faults: each next request to that route consumes one, then normal behaviour resumes. */
  inject(route: RouteName, ...faults: Fault[]): void;
  /** Persistent added latency (0 to clear). 'all' adds to every route's own value. */
  setLatency(route: RouteName | 'all', ms: number): void;
  /** Drops queued faults and resets every latency to 0. */
  clearFaults(): void;
  /** Closes the server, destroys open and hanging sockets, clears timers. */
  close(): Promise<void>;
}
