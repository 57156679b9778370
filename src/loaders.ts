// Per-request batch functions behind the schema's DataLoaders. They hold what one operation has
// already seen, so a tunnel listed by `tunnels` is never fetched again by `tunnel(id)` or `node(id)`.
import type { BackendModule, NgrokClient, RouteKey, Tunnel } from './upstream';

/** Upstream pages fetched to fill one connection page when the upstream returns short pages. */
const MAX_FILL_CALLS = 3;

export interface TunnelSlice {
  readonly tunnels: readonly Tunnel[];
  /** Exact; may cost one more upstream call, made only when a client asks for it. */
  readonly hasNextPage: () => Promise<boolean>;
}

export class TunnelLookup {
  private readonly seen = new Map<string, Tunnel>();
  private readonly listing = new Set<Promise<unknown>>();

  constructor(private readonly client: NgrokClient) {}

  /**
   * `first` tunnels older than `beforeId` (newest first). Below the upstream's 100 cap it asks for
   * one extra item, so hasNextPage needs no second call; at 100 it probes only when asked.
   */
  page(first: number, beforeId: string | undefined): Promise<TunnelSlice> {
    const work = this.fill(first, beforeId);
    this.listing.add(work);
    return work.finally(() => this.listing.delete(work));
  }

  /** Batch function of the tunnel loader: listed tunnels first, then one GET per remaining id. */
  async load(ids: readonly string[]): Promise<(Tunnel | null | Error)[]> {
    if (this.listing.size > 0) await Promise.allSettled([...this.listing]);
    return Promise.all(
      ids.map(async (id) => {
        const known = this.seen.get(id);
        if (known) return known;
        try {
          return await this.client.getTunnel(id);
        } catch (error) {
          return error instanceof Error ? error : new Error(String(error));
        }
      }),
    );
  }

  private async fill(first: number, beforeId: string | undefined): Promise<TunnelSlice> {
    const want = first + 1;
    const items: Tunnel[] = [];
    let cursor = beforeId;
    let more = true;
    for (let call = 0; call < MAX_FILL_CALLS && more && items.length < first; call += 1) {
      const result = await this.client.listTunnels({
        limit: Math.min(100, want - items.length),
        beforeId: cursor,
      });
      for (const t of result.tunnels) this.seen.set(t.id, t);
      items.push(...result.tunnels);
      const last = result.tunnels.at(-1);
      more = result.nextPageUri !== null && last !== undefined;
      cursor = last?.id ?? cursor;
    }
    const tunnels = items.slice(0, first);
    if (items.length > first) return { tunnels, hasNextPage: async () => true };
    const end = tunnels.at(-1);
    if (!more || end === undefined) return { tunnels, hasNextPage: async () => false };
    // The upstream hinted at more (first = 100, or short pages): look one item ahead, once, on demand.
    let probe: Promise<boolean> | undefined;
    return {
      tunnels,
      hasNextPage: () => {
        probe ??= this.client.listTunnels({ limit: 1, beforeId: end.id }).then((r) => r.tunnels.length > 0);
        return probe;
      },
    };
  }
}

export const routeKey = (route: RouteKey): string => `${route.edgeId}/${route.routeId}`;

export function parseRouteKey(key: string): RouteKey {
  const [edgeId = '', routeId = ''] = key.split('/');
  return { edgeId, routeId };
}

export interface LoadedBackendModule extends BackendModule, RouteKey {}

/** Batch function of the backend module loader: one GET per distinct route. */
export function loadBackendModules(
  client: NgrokClient,
  keys: readonly string[],
): Promise<(LoadedBackendModule | null | Error)[]> {
  return Promise.all(
    keys.map(async (key) => {
      const route = parseRouteKey(key);
      try {
        const module = await client.getBackendModule(route);
        return module && { ...route, ...module };
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    }),
  );
}
