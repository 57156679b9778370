// The upstream client: one per request's API key (with its digest, computed once), over the shared
// transport and read cache; every call it sends carries that key.
import { missingCredential } from '../errors';
import type { BackendModule, Endpoint, Resource } from '../resources';
import { type AgentCommand, commandTunnelSession } from './api/agent-commands';
import {
  type BackendModuleInput,
  deleteBackendModule,
  getBackendModule,
  getBackendRequest,
  type RouteKey,
  replaceBackendModule,
} from './api/backend-modules';
import {
  type CloudEndpointInput,
  createEndpoint,
  deleteEndpoint,
  type EndpointFields,
  updateEndpoint,
} from './api/endpoints';
import {
  getItem,
  getItemRequest,
  type ListedPage,
  type ListedPageRequest,
  listItems,
  listItemsRequest,
} from './api/items';
import type { UpstreamRequest } from './call/request';
import type { UpstreamKey } from './call/upstream-key';
import type { ReadCache } from './read-cache';
import type { UpstreamTransport } from './transport';

export class NgrokClient {
  /**
   * `apiKey` null: a client for a request without credential; every call refuses. `cache`: the
   * gateway's read cache (CACHE_TTL_MS), shared by every request's client.
   */
  constructor(
    private readonly transport: UpstreamTransport,
    private readonly apiKey: UpstreamKey | null,
    private readonly cache?: ReadCache,
  ) {}

  /** The API key and its digest (the cache's and every stage's key: never the key itself). */
  get key(): UpstreamKey {
    if (this.apiKey === null) throw missingCredential();
    return this.apiKey;
  }

  /**
   * A read with this client's key: through the cache when there is one, keyed by the request's
   * path, a hit (no call of its own) reported as such; without a cache the plain call, nothing added.
   */
  private read<A, T>(
    request: (args: A) => UpstreamRequest,
    call: (transport: UpstreamTransport, key: UpstreamKey, args: A) => Promise<T>,
    args: A,
    related?: (value: T) => Iterable<readonly [path: string, value: unknown]>,
  ): Promise<T> {
    const key = this.key;
    const cache = this.cache;
    if (!cache) return call(this.transport, key, args);
    const upstreamRequest = request(args);
    return cache.read(
      key.digest,
      this.transport.pathOf(upstreamRequest),
      () => call(this.transport, key, args),
      related,
      () => this.transport.noteCacheHit(upstreamRequest.route),
    );
  }

  /** Each listed item is what its own GET would answer: a later read of it by id needs no call. */
  private asRead(items: readonly { readonly id: string }[], get: (id: string) => UpstreamRequest) {
    return items.map((item) => [this.transport.pathOf(get(item.id)), item] as const);
  }

  /** A write with this client's key: through the cache when there is one, which drops its answers. */
  private write<T>(perform: (key: UpstreamKey) => Promise<T>): Promise<T> {
    const key = this.key;
    const run = () => perform(key);
    return this.cache ? this.cache.write(key.digest, run) : run();
  }

  getBackendModule(route: RouteKey): Promise<BackendModule | null> {
    return this.read(getBackendRequest, getBackendModule, route);
  }

  replaceBackendModule(route: RouteKey, input: BackendModuleInput): Promise<BackendModule> {
    return this.write((key) => replaceBackendModule(this.transport, key, route, input));
  }

  deleteBackendModule(route: RouteKey): Promise<void> {
    return this.write((key) => deleteBackendModule(this.transport, key, route));
  }

  createCloudEndpoint(input: CloudEndpointInput): Promise<Endpoint> {
    return this.write((key) => createEndpoint(this.transport, key, input));
  }

  updateEndpoint(id: string, fields: EndpointFields): Promise<Endpoint> {
    return this.write((key) => updateEndpoint(this.transport, key, id, fields));
  }

  deleteEndpoint(id: string): Promise<void> {
    return this.write((key) => deleteEndpoint(this.transport, key, id));
  }

  /**
   * A page of a kind's list. For a kind read by GET, each item it holds is what its own GET would
   * answer: the cache answers a later GET of it. (A kind read by id through its filtered list is
   * never GET: its items are not stored twice.)
   */
  listItems<T extends { readonly id: string }>(
    resource: Resource<T>,
    page: ListedPageRequest,
  ): Promise<ListedPage<T>> {
    const related =
      resource.byId === 'list-by-ids'
        ? undefined
        : (result: ListedPage<T>) => this.asRead(result.items, (id) => getItemRequest(resource, id));
    return this.read(
      (p: ListedPageRequest) => listItemsRequest(resource, p),
      (transport, key, p) => listItems(transport, key, resource, p),
      page,
      related,
    );
  }

  getItem<T extends { readonly id: string }>(resource: Resource<T>, id: string): Promise<T | null> {
    return this.read(
      (i: string) => getItemRequest(resource, i),
      (transport, key, i) => getItem(transport, key, resource, i),
      id,
    );
  }

  /** Sends a command to an online agent (never retried once sent). */
  commandTunnelSession(id: string, command: AgentCommand): Promise<void> {
    return this.write((key) => commandTunnelSession(this.transport, key, id, command));
  }
}
