// The HTTPS edges and backends of an account as seeds give them (types.ts re-exports them).

export interface RouteSeed {
  id: string;
  backend?: { backendId: string; enabled: boolean };
  /** exact_path or path_prefix (default path_prefix), the path matched (default /). */
  match_type?: string;
  match?: string;
  description?: string;
  metadata?: string;
  /** The route's other modules as sent (oauth, webhook_verification, …: they may hold secrets). */
  modules?: Record<string, unknown>;
}

export interface EdgeSeed {
  id: string;
  routes: RouteSeed[];
  /** Default: none. */
  hostports?: string[];
  description?: string;
  metadata?: string;
}

/**
 * A backend as GET /backends/<kind>/{id} sends it, less `uri` and `created_at` (from the id) and,
 * for a tunnel group, `tunnels` (the online tunnels whose `backends` name it). The kind's fields:
 * `labels` (tunnel group), `backends` (failover: ids in order; weighted: id to weight), `status_code`,
 * `body`, `headers` (HTTP response), `address`, `tls` (static).
 */
export interface UpstreamBackend {
  id: string;
  description?: string;
  metadata?: string;
  labels?: Record<string, string>;
  backends?: string[] | Record<string, number>;
  status_code?: number;
  body?: string;
  headers?: Record<string, string>;
  address?: string;
  tls?: { enabled: boolean };
}
