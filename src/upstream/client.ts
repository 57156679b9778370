// The upstream client: one per request's credential, over the shared transport and read cache.
import { missingCredential } from '../errors';
import type { BackendModule } from './backend-module-json';
import type { ReadCache } from './cache';
import type { UpstreamRequest } from './call';
import { credentialDigest } from './credential-digest';
import {
  type BackendModuleInput,
  deleteBackendModule,
  getBackendModule,
  getBackendRequest,
  type RouteKey,
  replaceBackendModule,
} from './edges';
import type { UpstreamTransport } from './transport';
import type { Tunnel, TunnelPage } from './tunnel-json';
import {
  getTunnel,
  getTunnelRequest,
  listTunnels,
  listTunnelsRequest,
  type TunnelPageRequest,
} from './tunnels';

export class NgrokClient {
  private digest: string | undefined;

  /**
   * `key` null: a client for a request without credential; every call refuses. `cache`: the
   * gateway's read cache (CACHE_TTL_MS), shared by every request's client.
   */
  constructor(
    private readonly transport: UpstreamTransport,
    private readonly key: string | null,
    private readonly cache?: ReadCache,
  ) {}

  private get apiKey(): string {
    if (this.key === null) throw missingCredential();
    return this.key;
  }

  /** The cache's key for this credential: a digest, never the credential itself. */
  private get credential(): string {
    this.digest ??= credentialDigest(this.apiKey);
    return this.digest;
  }

  /**
   * A read through the cache when there is one, keyed by the request's path; a hit (no call of its
   * own) is reported as such. Without a cache it is the plain call, with nothing added.
   */
  private cached<T>(
    request: () => UpstreamRequest,
    fetch: () => Promise<T>,
    related?: (value: T) => Iterable<readonly [path: string, value: unknown]>,
  ): Promise<T> {
    const cache = this.cache;
    if (!cache) return fetch();
    const upstreamRequest = request();
    let called = false;
    const counted = () => {
      called = true;
      return fetch();
    };
    return cache
      .read(this.credential, this.transport.pathOf(upstreamRequest), counted, related)
      .then((value) => {
        if (!called) this.transport.noteCacheHit(upstreamRequest.route);
        return value;
      });
  }

  listTunnels(page: TunnelPageRequest): Promise<TunnelPage> {
    const apiKey = this.apiKey;
    // Each listed tunnel is what its own GET would answer: a later tunnel(id) needs no call.
    return this.cached(
      () => listTunnelsRequest(page),
      () => listTunnels(this.transport, apiKey, page),
      (result) => result.tunnels.map((t) => [this.transport.pathOf(getTunnelRequest(t.id)), t] as const),
    );
  }

  getTunnel(id: string): Promise<Tunnel | null> {
    const apiKey = this.apiKey;
    return this.cached(
      () => getTunnelRequest(id),
      () => getTunnel(this.transport, apiKey, id),
    );
  }

  getBackendModule(route: RouteKey): Promise<BackendModule | null> {
    const apiKey = this.apiKey;
    return this.cached(
      () => getBackendRequest(route),
      () => getBackendModule(this.transport, apiKey, route),
    );
  }

  replaceBackendModule(route: RouteKey, input: BackendModuleInput): Promise<BackendModule> {
    const apiKey = this.apiKey;
    const perform = () => replaceBackendModule(this.transport, apiKey, route, input);
    return this.cache ? this.cache.write(this.credential, perform) : perform();
  }

  deleteBackendModule(route: RouteKey): Promise<void> {
    const apiKey = this.apiKey;
    const perform = () => deleteBackendModule(this.transport, apiKey, route);
    return this.cache ? this.cache.write(this.credential, perform) : perform();
  }
}
