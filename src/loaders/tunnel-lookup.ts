// One operation's view of its tunnels: the pages it listed and the tunnels it saw, so a tunnel
// listed by `tunnels` is never fetched again by `tunnel(id)` or `node(id)` (the tunnel loader's batch).
import { MAX_PAGE_SIZE, type NgrokClient, type Tunnel } from '../upstream';

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
   * `first` tunnels older than `beforeId` (newest first). Below the upstream's page cap it asks for
   * one extra item, so hasNextPage needs no second call; at the cap it probes only when asked.
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
        limit: Math.min(MAX_PAGE_SIZE, want - items.length),
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
    // The upstream hinted at more (first = the page cap, or short pages): look one item ahead, once, on demand.
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
