// One account as the stand-in holds it: tunnels and cloud endpoints newest first, edges' routes
// and their backend modules, backends, and the account graph; the endpoint list derived from them.
import { agentSessionOf, agentSessionsOf } from '../account-graph/data';
import { certificatesFor, credentialOf, credentialsFor } from '../account-graph/issued';
import { AccountGraph } from '../account-graph/store';
import { EdgeDetails } from '../edges/store';
import type { AccountSeed, CloudEndpoint, EdgeSeed, RouteSeed, UpstreamTunnel } from '../types';
import { idTime } from './ids';
import { NewestFirst } from './newest-first';
import { type Page, pageOf } from './paging';

export interface BackendModule {
  backendId: string;
  enabled: boolean;
}

interface TunnelPage {
  tunnels: UpstreamTunnel[];
  /** True when an item older than the page's last one exists. */
  hasMore: boolean;
}

/** One entry of the endpoint list: an agent tunnel's endpoint or a stored cloud endpoint. */
export type EndpointRecord =
  | { id: string; type: 'agent'; tunnel: UpstreamTunnel }
  | { id: string; type: 'cloud'; endpoint: CloudEndpoint };

/** A tunnel started by an agent on a URL (not a labeled one): it has an agent endpoint. */
function isAgentTunnel(tunnel: UpstreamTunnel): boolean {
  return tunnel.public_url !== undefined && tunnel.proto !== undefined && tunnel.labels === undefined;
}

/** The agent endpoint's id: the tunnel's suffix under `ep_`. */
function agentEndpointId(tunnelId: string): string {
  return `ep_${tunnelId.slice(tunnelId.indexOf('_') + 1)}`;
}

/** One account's in-memory state. Seeds are copied in and out so callers never share references. */
export class AccountStore {
  /** Newest first: ids sort by creation time, so this is descending id order. */
  private readonly tunnels: NewestFirst<UpstreamTunnel>;
  private readonly edges = new Map<string, Map<string, BackendModule | undefined>>();
  private readonly backends: Set<string>;
  /** Cloud endpoints, newest first like the tunnels. */
  private readonly clouds: NewestFirst<CloudEndpoint>;
  /** The last time tick() gave out (ms); never behind a seeded timestamp. */
  private lastTick = 0;
  /** Agents (tunnel sessions) and reservations. */
  readonly graph: AccountGraph;
  /** The edges' and routes' own fields, and the backends'. */
  readonly edgeDetails: EdgeDetails;

  constructor(
    seed: AccountSeed,
    private readonly now: () => number = Date.now,
  ) {
    const copy = structuredClone(seed);
    this.tunnels = new NewestFirst(copy.tunnels ?? [], 'tunnel');
    this.clouds = new NewestFirst(copy.endpoints ?? [], 'endpoint');
    for (const endpoint of this.clouds.items) {
      for (const time of [endpoint.created_at, endpoint.updated_at]) {
        this.lastTick = Math.max(this.lastTick, Date.parse(time) || 0);
      }
    }
    for (const edge of copy.edges ?? []) {
      const routes = new Map<string, BackendModule | undefined>();
      for (const route of edge.routes) routes.set(route.id, route.backend);
      this.edges.set(edge.id, routes);
    }
    this.backends = new Set([...(copy.backends ?? []), ...(copy.backendDetails ?? []).map((b) => b.id)]);
    this.edgeDetails = new EdgeDetails(copy.edges ?? [], copy.backendDetails ?? [], copy.edgesRetired);
    const sessions = copy.tunnelSessions ?? agentSessionsOf(copy.tunnels ?? []);
    this.graph = new AccountGraph({
      tunnelSessions: sessions,
      reservedDomains: copy.reservedDomains ?? [],
      reservedAddrs: copy.reservedAddrs ?? [],
      credentials: copy.credentials ?? credentialsFor(sessions),
      tlsCertificates: copy.tlsCertificates ?? certificatesFor(copy.reservedDomains ?? []),
    });
  }

  snapshot(): AccountSeed {
    const edges = [...this.edges].map(([id, routes]): EdgeSeed => {
      const seeded = this.edgeDetails.edge(id);
      return {
        ...seeded,
        id,
        routes: [...routes].map(([routeId, backend]): RouteSeed => {
          const { backend: _seeded, ...fields } = seeded?.routes.find((r) => r.id === routeId) ?? {
            id: routeId,
          };
          return { ...fields, id: routeId, ...(backend === undefined ? {} : { backend: { ...backend } }) };
        }),
      };
    });
    const details = this.edgeDetails.backends;
    return structuredClone({
      tunnels: [...this.tunnels.items],
      edges,
      backends: [...this.backends],
      ...(details.length > 0 ? { backendDetails: details } : {}),
      ...(this.edgeDetails.retired ? { edgesRetired: true } : {}),
      endpoints: [...this.clouds.items],
      ...this.graph.snapshot(),
    });
  }

  /** Up to `limit` tunnels older than `beforeId` (all when absent), newest first. */
  listTunnels(limit: number, beforeId?: string): TunnelPage {
    const page: Page<UpstreamTunnel> = pageOf(this.tunnels.items, limit, beforeId);
    return { tunnels: page.items, hasMore: page.hasMore };
  }

  /** The newest tunnel, or undefined when there is none. */
  newestTunnel(): UpstreamTunnel | undefined {
    return this.tunnels.items[0];
  }

  /** Brings a tunnel online, in its place by id (creation time), and its agent when it is not online. */
  addTunnel(tunnel: UpstreamTunnel): void {
    if (this.tunnels.get(tunnel.id)) throw new Error(`tunnel ${tunnel.id} is already online`);
    this.tunnels.put(structuredClone(tunnel));
    const session = tunnel.tunnel_session.id;
    if (this.graph.sessions.get(session)) return;
    const agent = agentSessionOf(session, tunnel.region);
    this.graph.sessions.put(agent);
    const credential = agent.credential?.id;
    if (credential && !this.graph.credentials.get(credential))
      this.graph.credentials.put(credentialOf(credential));
  }

  /** The online tunnels of one agent, newest first. */
  tunnelsOf(sessionId: string): UpstreamTunnel[] {
    return this.tunnels.items.filter((t) => t.tunnel_session.id === sessionId);
  }

  /** Takes a tunnel offline; false when it was not online. */
  removeTunnel(id: string): boolean {
    return this.tunnels.remove(id);
  }

  get tunnelCount(): number {
    return this.tunnels.size;
  }

  getTunnel(id: string): UpstreamTunnel | undefined {
    return this.tunnels.get(id);
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

  /** The backend module of every route of the edge, by route id (undefined: none); undefined for no such edge. */
  modulesOf(edgeId: string): ReadonlyMap<string, BackendModule | undefined> | undefined {
    return this.edges.get(edgeId);
  }

  /** Every edge's id. */
  edgeIds(): string[] {
    return [...this.edges.keys()];
  }

  /** The online tunnels whose `backends` name this backend, newest first. */
  tunnelsBehind(backendId: string): UpstreamTunnel[] {
    return this.tunnels.items.filter((t) => t.backends?.some((b) => b.id === backendId) === true);
  }

  /** Every backend id of the account. */
  backendIds(): string[] {
    return [...this.backends];
  }

  hasBackend(id: string): boolean {
    return this.backends.has(id);
  }

  /**
   * The store's clock: now, but strictly later than every time it gave out before (and than any
   * seeded timestamp), so an updated_at moves on every update even within one millisecond.
   */
  tick(): Date {
    this.lastTick = Math.max(this.now(), this.lastTick + 1);
    return new Date(this.lastTick);
  }

  /** When a new endpoint is created: now, or a second after the newest endpoint, so it lists first. */
  newEndpointTime(): Date {
    const newest = this.endpointRecords()[0];
    const after = newest === undefined ? 0 : (idTime(newest.id)?.getTime() ?? 0) + 1000;
    const time = this.tick();
    if (after > time.getTime()) this.lastTick = after;
    return new Date(this.lastTick);
  }

  /** Every endpoint, newest first: one per agent tunnel, then merged with the cloud endpoints. */
  endpointRecords(): EndpointRecord[] {
    const agents: EndpointRecord[] = [];
    for (const tunnel of this.tunnels.items) {
      if (isAgentTunnel(tunnel)) agents.push({ id: agentEndpointId(tunnel.id), type: 'agent', tunnel });
    }
    const clouds = this.clouds.items.map(
      (endpoint): EndpointRecord => ({ id: endpoint.id, type: 'cloud', endpoint }),
    );
    // Both are already newest first: a merge keeps it so without sorting again.
    const merged: EndpointRecord[] = [];
    let a = 0;
    let c = 0;
    while (a < agents.length || c < clouds.length) {
      const agent = agents[a];
      const cloud = clouds[c];
      if (cloud === undefined || (agent !== undefined && agent.id > cloud.id)) {
        if (agent !== undefined) merged.push(agent);
        a += 1;
      } else {
        merged.push(cloud);
        c += 1;
      }
    }
    return merged;
  }

  /** The endpoint with that id: a cloud one, or the agent endpoint of an online agent tunnel. */
  getEndpoint(id: string): EndpointRecord | undefined {
    const endpoint = this.clouds.get(id);
    if (endpoint !== undefined) return { id, type: 'cloud', endpoint };
    if (!id.startsWith('ep_')) return undefined;
    const tunnel = this.tunnels.get(`tn_${id.slice(3)}`);
    return tunnel !== undefined && isAgentTunnel(tunnel) ? { id, type: 'agent', tunnel } : undefined;
  }

  /** Stores a cloud endpoint: a new one in its place by id, or a replacement of the one with its id. */
  putCloudEndpoint(endpoint: CloudEndpoint): void {
    this.clouds.put(structuredClone(endpoint));
  }

  /** Deletes a cloud endpoint; false when there is none with that id. */
  removeCloudEndpoint(id: string): boolean {
    return this.clouds.remove(id);
  }

  getCloudEndpoint(id: string): CloudEndpoint | undefined {
    return this.clouds.get(id);
  }

  get cloudEndpointCount(): number {
    return this.clouds.size;
  }

  /** The newest `count` cloud endpoints (the ones a first page shows). */
  newestCloudEndpoints(count: number): CloudEndpoint[] {
    return this.clouds.items.slice(0, count);
  }
}
