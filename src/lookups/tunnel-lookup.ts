// One operation's tunnels: the pages it listed, and its tunnels by id, so a tunnel listed by
// `tunnels` is never fetched again by `tunnel(id)`, `node(id)` or a reference. By id, the upstream
// offers only one GET per tunnel (its list cannot filter by id); references come many at a time, so
// their batch lists the newest 100 tunnels first.
import DataLoader from 'dataloader';
import { MAX_PAGE_SIZE, type NgrokClient, type Tunnel } from '../upstream';
import { readPage, type Slice } from './forward-pages';
import { asError, ItemLookup } from './item-lookup';
import type { Listings } from './listings';

export class TunnelLookup extends ItemLookup<Tunnel> {
  /**
   * Batches the references (Ref.node) of a response; it caches nothing itself: what it reads goes
   * into this lookup like any list (known, and primed into the one loader of tunnels by id). Made
   * on first use.
   */
  private referenced: DataLoader<string, Tunnel | null> | undefined;

  constructor(
    private readonly client: NgrokClient,
    listings: Listings,
  ) {
    super(listings);
  }

  /** `first` tunnels older than `beforeId` (newest first). */
  page(first: number, beforeId: string | undefined): Promise<Slice<Tunnel>> {
    const work = readPage<Tunnel>(
      async (limit, before) => {
        const result = await this.client.listTunnels({ limit, beforeId: before });
        this.listed(result.tunnels);
        return { items: result.tunnels, nextPageUri: result.nextPageUri };
      },
      first,
      beforeId,
    );
    return this.listings.track(work);
  }

  /** The tunnel a reference points at, or null when it is offline. */
  loadReference(id: string): Promise<Tunnel | null> {
    this.referenced ??= new DataLoader((ids) => this.loadReferenced(ids), { cache: false });
    return this.referenced.load(id);
  }

  /** One GET per id. */
  protected async fetch(ids: readonly string[], failed: Map<string, Error>): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        try {
          const tunnel = await this.client.getTunnel(id);
          if (tunnel) this.listed([tunnel]);
        } catch (error) {
          failed.set(id, asError(error));
        }
      }),
    );
  }

  /**
   * Two or more unknown ids cost one list of the newest 100 tunnels first; only ids it misses while
   * more tunnels exist are loaded by id (one GET each).
   */
  private async loadReferenced(ids: readonly string[]): Promise<(Tunnel | null | Error)[]> {
    await this.listings.settled();
    const unknown = new Set(ids.filter((id) => !this.knownItem(id)));
    if (unknown.size < 2) return this.loadMany(ids);
    try {
      const result = await this.client.listTunnels({ limit: MAX_PAGE_SIZE });
      this.listed(result.tunnels);
      if (result.nextPageUri === null) return ids.map((id) => this.knownItem(id) ?? null);
    } catch (error) {
      const failure = asError(error);
      return ids.map((id) => this.knownItem(id) ?? failure);
    }
    return this.loadMany(ids);
  }
}
