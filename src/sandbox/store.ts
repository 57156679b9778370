import type { AccountSeed, RouteSeed, UpstreamTunnel } from './types';

export interface BackendModule {
  backendId: string;
  enabled: boolean;
}

export interface TunnelPage {
  tunnels: UpstreamTunnel[];
  /** True when an item older than the page's last one exists. */
  hasMore: boolean;
}

/** One account's in-memory state. Seeds are copied in and out so callers never share references. */
export class AccountStore {
  /** Newest first: ids sort by creation time, so this is descending id order. */
  private readonly tunnels: UpstreamTunnel[];
  private readonly tunnelsById = new Map<string, UpstreamTunnel>();
  private readonly edges = new Map<string, Map<string, BackendModule | undefined>>();
  private readonly backends: Set<string>;

  constructor(seed: AccountSeed) {
    const copy = structuredClone(seed);
    this.tunnels = [...(copy.tunnels ?? [])].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    for (const tunnel of this.tunnels) {
      if (this.tunnelsById.has(tunnel.id)) throw new Error(`duplicate tunnel id in seed: ${tunnel.id}`);
      this.tunnelsById.set(tunnel.id, tunnel);
    }
    for (const edge of copy.edges ?? []) {
      const routes = new Map<string, BackendModule | undefined>();
      for (const route of edge.routes) routes.set(route.id, route.backend);
      this.edges.set(edge.id, routes);
    }
    this.backends = new Set(copy.backends ?? []);
  }

  snapshot(): AccountSeed {
    const edges = [...this.edges].map(([id, routes]) => ({
      id,
      routes: [...routes].map(
        ([routeId, backend]): RouteSeed => ({
          id: routeId,
          ...(backend === undefined ? {} : { backend: { ...backend } }),
        }),
      ),
    }));
    return structuredClone({ tunnels: this.tunnels, edges, backends: [...this.backends] });
  }

  /** Up to `limit` tunnels older than `beforeId` (all when absent), newest first. */
  listTunnels(limit: number, beforeId?: string): TunnelPage {
    const start = beforeId === undefined ? 0 : this.firstOlderThan(beforeId);
    const tunnels = this.tunnels.slice(start, start + limit);
    return { tunnels, hasMore: start + limit < this.tunnels.length };
  }

  /** The newest tunnel, or undefined when there is none. */
  newestTunnel(): UpstreamTunnel | undefined {
    return this.tunnels[0];
  }

  /** Brings a tunnel online, in its place by id (creation time). */
  addTunnel(tunnel: UpstreamTunnel): void {
    if (this.tunnelsById.has(tunnel.id)) throw new Error(`tunnel ${tunnel.id} is already online`);
    const copy = structuredClone(tunnel);
    this.tunnels.splice(this.firstOlderThan(copy.id), 0, copy);
    this.tunnelsById.set(copy.id, copy);
  }

  /** Takes a tunnel offline; false when it was not online. */
  removeTunnel(id: string): boolean {
    const tunnel = this.tunnelsById.get(id);
    if (tunnel === undefined) return false;
    this.tunnelsById.delete(id);
    this.tunnels.splice(this.tunnels.indexOf(tunnel), 1);
    return true;
  }

  get tunnelCount(): number {
    return this.tunnels.length;
  }

  getTunnel(id: string): UpstreamTunnel | undefined {
    return this.tunnelsById.get(id);
  }

  hasRoute(edgeId: string, routeId: string): boolean {
    return this.edges.get(edgeId)?.has(routeId) ?? false;
  }

  /** The route's module; undefined when the route has none (or does not exist: check hasRoute first). */
  getModule(edgeId: string, routeId: string): BackendModule | undefined {
    return this.edges.get(edgeId)?.get(routeId);
  }

  setModule(edgeId: string, routeId: string, module: BackendModule | undefined): void {
    const routes = this.edges.get(edgeId);
    if (!routes?.has(routeId)) throw new Error(`no route ${edgeId}/${routeId}`);
    routes.set(routeId, module);
  }

  hasBackend(id: string): boolean {
    return this.backends.has(id);
  }

  /** Binary search for the first index whose id sorts below `beforeId`. */
  private firstOlderThan(beforeId: string): number {
    let low = 0;
    let high = this.tunnels.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const id = this.tunnels[mid]?.id ?? '';
      if (id < beforeId) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}
