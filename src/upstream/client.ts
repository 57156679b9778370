// The upstream client: one per request's credential, over the shared transport and read cache. The
// credential's digest is computed here once and carried by every call the client sends.
import { missingCredential } from '../errors';
import { type AgentCommand, commandTunnelSession } from './api/agent-commands';
import type { BackendModule } from './api/backend-module-json';
import {
  type BackendModuleInput,
  deleteBackendModule,
  getBackendModule,
  getBackendRequest,
  type RouteKey,
  replaceBackendModule,
} from './api/backend-modules';
import type { Endpoint, EndpointPage } from './api/endpoint-json';
import {
  type CloudEndpointInput,
  createEndpoint,
  deleteEndpoint,
  type EndpointFields,
  type EndpointPageRequest,
  getEndpoint,
  getEndpointRequest,
  listEndpoints,
  listEndpointsRequest,
  updateEndpoint,
} from './api/endpoints';
import {
  getItem,
  getItemRequest,
  type ListedPage,
  type ListedPageRequest,
  type ListedResource,
  listItems,
  listItemsRequest,
} from './api/listed-resources';
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
    key: ApiCredential | string | null,
    private readonly cache?: ReadCache,
  ) {
    this.key = typeof key === 'object' && key !== null ? key.apiKey : key;
    if (typeof key === 'object' && key !== null) this.digested = key;
  }

  private readonly key: string | null;

  /** The key and its digest, computed once (the cache's and every stage's key: never the credential itself). */
  get credential(): ApiCredential {
    if (this.key === null) throw missingCredential();
    this.digested ??= apiCredential(this.key);
    return this.digested;
  }

  /**
   * A read with this client's credential: through the cache when there is one, keyed by the request's
   * path, a hit (no call of its own) reported as such; without a cache the plain call, nothing added.
   */
  private read<A, T>(
    request: (args: A) => UpstreamRequest,
    call: (transport: UpstreamTransport, credential: ApiCredential, args: A) => Promise<T>,
    args: A,
    related?: (value: T) => Iterable<readonly [path: string, value: unknown]>,
  ): Promise<T> {
    const credential = this.credential;
    const cache = this.cache;
    if (!cache) return call(this.transport, credential, args);
    const upstreamRequest = request(args);
    let called = false;
    const counted = () => {
      called = true;
      return call(this.transport, credential, args);
    };
    return cache
      .read(credential.digest, this.transport.pathOf(upstreamRequest), counted, related)
      .then((value) => {
        if (!called) this.transport.noteCacheHit(upstreamRequest.route);
        return value;
      });
  }

  /** Each listed item is what its own GET would answer: a later read of it by id needs no call. */
  private asRead(items: readonly { readonly id: string }[], get: (id: string) => UpstreamRequest) {
    return items.map((item) => [this.transport.pathOf(get(item.id)), item] as const);
  }

  /** A write with this client's credential: through the cache when there is one, which drops its answers. */
  private write<T>(perform: (credential: ApiCredential) => Promise<T>): Promise<T> {
    const credential = this.credential;
    const run = () => perform(credential);
    return this.cache ? this.cache.write(credential.digest, run) : run();
  }

  listTunnels(page: TunnelPageRequest): Promise<TunnelPage> {
    return this.read(listTunnelsRequest, listTunnels, page, (result) =>
      this.asRead(result.tunnels, getTunnelRequest),
    );
  }

  getTunnel(id: string): Promise<Tunnel | null> {
    return this.read(getTunnelRequest, getTunnel, id);
  }

  getBackendModule(route: RouteKey): Promise<BackendModule | null> {
    return this.read(getBackendRequest, getBackendModule, route);
  }

  replaceBackendModule(route: RouteKey, input: BackendModuleInput): Promise<BackendModule> {
    return this.write((credential) => replaceBackendModule(this.transport, credential, route, input));
  }

  deleteBackendModule(route: RouteKey): Promise<void> {
    return this.write((credential) => deleteBackendModule(this.transport, credential, route));
  }

  listEndpoints(page: EndpointPageRequest): Promise<EndpointPage> {
    return this.read(listEndpointsRequest, listEndpoints, page, (result) =>
      this.asRead(result.endpoints, getEndpointRequest),
    );
  }

  getEndpoint(id: string): Promise<Endpoint | null> {
    return this.read(getEndpointRequest, getEndpoint, id);
  }

  createCloudEndpoint(input: CloudEndpointInput): Promise<Endpoint> {
    return this.write((credential) => createEndpoint(this.transport, credential, input));
  }

  updateEndpoint(id: string, fields: EndpointFields): Promise<Endpoint> {
    return this.write((credential) => updateEndpoint(this.transport, credential, id, fields));
  }

  deleteEndpoint(id: string): Promise<void> {
    return this.write((credential) => deleteEndpoint(this.transport, credential, id));
  }

  /** A page of a listed resource (tunnel sessions, reserved domains, reserved addresses). */
  listItems<T extends { readonly id: string }>(
    resource: ListedResource<T>,
    page: ListedPageRequest,
  ): Promise<ListedPage<T>> {
    return this.read(
      (p: ListedPageRequest) => listItemsRequest(resource, p),
      (transport, credential, p) => listItems(transport, credential, resource, p),
      page,
      (result) => this.asRead(result.items, (id) => getItemRequest(resource, id)),
    );
  }

  getItem<T extends { readonly id: string }>(resource: ListedResource<T>, id: string): Promise<T | null> {
    return this.read(
      (i: string) => getItemRequest(resource, i),
      (transport, credential, i) => getItem(transport, credential, resource, i),
      id,
    );
  }

  /** Sends a command to an online agent (never retried once sent). */
  commandTunnelSession(id: string, command: AgentCommand): Promise<void> {
    return this.write((credential) => commandTunnelSession(this.transport, credential, id, command));
  }
}
