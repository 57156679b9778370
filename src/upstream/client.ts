// The upstream client: one per request's credential, over the shared transport and read cache. The
// credential's digest is computed here once and carried by every call the client sends.
import { missingCredential } from '../errors';
import type { BackendModule } from './api/backend-module-json';
import {
  type BackendModuleInput,
  deleteBackendModule,
  getBackendModule,
  getBackendRequest,
  type RouteKey,
  replaceBackendModule,
} from './api/backend-modules';
import type { Tunnel, TunnelPage } from './api/tunnel-json';
import {
  getTunnel,
  getTunnelRequest,
  listTunnels,
  listTunnelsRequest,
  type TunnelPageRequest,
} from './api/tunnels';
import { type ApiCredential, apiCredential } from './http/credential';
import type { UpstreamRequest } from './http/request';
import type { ReadCache } from './read-cache';
import type { UpstreamTransport } from './transport';

export class NgrokClient {
  private digested: ApiCredential | undefined;

  /**
   * `key` null: a client for a request without credential; every call refuses. `cache`: the
   * gateway's read cache (CACHE_TTL_MS), shared by every request's client.
   */
  constructor(
    private readonly transport: UpstreamTransport,
    private readonly key: string | null,
    private readonly cache?: ReadCache,
  ) {}

  /** The key and its digest (the cache's and every stage's key: never the credential itself). */
  private get credential(): ApiCredential {
    if (this.key === null) throw missingCredential();
    this.digested ??= apiCredential(this.key);
    return this.digested;
  }

  /**
   * A read through the cache when there is one, keyed by the request's path; a hit (no call of its
   * own) is reported as such. Without a cache it is the plain call, with nothing added.
   */
  private cached<T>(
    credential: ApiCredential,
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
      .read(credential.digest, this.transport.pathOf(upstreamRequest), counted, related)
      .then((value) => {
        if (!called) this.transport.noteCacheHit(upstreamRequest.route);
        return value;
      });
  }

  /** A write: through the cache when there is one, which drops this credential's answers. */
  private written<T>(credential: ApiCredential, perform: () => Promise<T>): Promise<T> {
    return this.cache ? this.cache.write(credential.digest, perform) : perform();
  }

  listTunnels(page: TunnelPageRequest): Promise<TunnelPage> {
    const credential = this.credential;
    // Each listed tunnel is what its own GET would answer: a later tunnel(id) needs no call.
    return this.cached(
      credential,
      () => listTunnelsRequest(page),
      () => listTunnels(this.transport, credential, page),
      (result) => result.tunnels.map((t) => [this.transport.pathOf(getTunnelRequest(t.id)), t] as const),
    );
  }

  getTunnel(id: string): Promise<Tunnel | null> {
    const credential = this.credential;
    return this.cached(
      credential,
      () => getTunnelRequest(id),
      () => getTunnel(this.transport, credential, id),
    );
  }

  getBackendModule(route: RouteKey): Promise<BackendModule | null> {
    const credential = this.credential;
    return this.cached(
      credential,
      () => getBackendRequest(route),
      () => getBackendModule(this.transport, credential, route),
    );
  }

  replaceBackendModule(route: RouteKey, input: BackendModuleInput): Promise<BackendModule> {
    const credential = this.credential;
    return this.written(credential, () => replaceBackendModule(this.transport, credential, route, input));
  }

  deleteBackendModule(route: RouteKey): Promise<void> {
    const credential = this.credential;
    return this.written(credential, () => deleteBackendModule(this.transport, credential, route));
  }
}
