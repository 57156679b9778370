// One operation's view of its tunnels: the pages it listed and the tunnels it saw, so a tunnel
// listed by `tunnels` is never fetched again by `tunnel(id)` or `node(id)` (the tunnel loader's batch).
import DataLoader from 'dataloader';
import { MAX_PAGE_SIZE, type NgrokClient, type Tunnel } from '../upstream';
import { readPage } from './forward-pages';
import { Listings } from './listings';

export interface TunnelSlice {
  readonly tunnels: readonly Tunnel[];
  /** Exact; may cost one more upstream call, made only when a client asks for it. */
  readonly hasNextPage: () => Promise<boolean>;
}

export class TunnelLookup {
  private readonly seen = new Map<string, Tunnel>();

  /** The tunnels that references (Ref.node) point at, batched over the whole response. */
  readonly referenced = new DataLoader<string, Tunnel | null>((ids) => this.loadReferenced(ids));

  constructor(
    private readonly client: NgrokClient,
    /** The operation's lists in flight, of every kind (shared with the other lookups). */
    private readonly listings: Listings = new Listings(),
  ) {}

  /**
   * `first` tunnels older than `beforeId` (newest first). Below the upstream's page cap it asks for
   * one extra item, so hasNextPage needs no second call; at the cap it probes only when asked.
   */
  page(first: number, beforeId: string | undefined): Promise<TunnelSlice> {
    const work = this.fill(first, beforeId);
    return this.listings.track(work);
  }

  /** Batch function of the tunnel loader: listed tunnels first, then one GET per remaining id. */
  async load(ids: readonly string[]): Promise<(Tunnel | null | Error)[]> {
    await this.listings.settled();
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

  /**
   * Batch of `referenced`: references come many at a time (one per endpoint of a page), so two or
   * more unknown ids cost one list of the newest 100 tunnels first; only ids it misses while more
   * tunnels exist get their own GET (through the tunnel loader's batch).
   */
  private async loadReferenced(ids: readonly string[]): Promise<(Tunnel | null | Error)[]> {
    await this.listings.settled();
    const unknown = ids.filter((id) => !this.seen.has(id));
    if (unknown.length < 2) return this.load(ids);
    let complete = false;
    try {
      const result = await this.client.listTunnels({ limit: MAX_PAGE_SIZE });
      for (const t of result.tunnels) this.seen.set(t.id, t);
      complete = result.nextPageUri === null;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      return ids.map((id) => this.seen.get(id) ?? failure);
    }
    if (complete) return ids.map((id) => this.seen.get(id) ?? null);
    return this.load(ids);
  }

  private async fill(first: number, beforeId: string | undefined): Promise<TunnelSlice> {
    const slice = await readPage<Tunnel>(
      async (limit, before) => {
        const result = await this.client.listTunnels({ limit, beforeId: before });
        for (const t of result.tunnels) this.seen.set(t.id, t);
        return { items: result.tunnels, nextPageUri: result.nextPageUri };
      },
      first,
      beforeId,
    );
    return { tunnels: slice.items, hasNextPage: slice.hasNextPage };
  }
}
