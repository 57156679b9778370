// One operation's view of its endpoints: every endpoint a list or a write showed it, so a listed
// endpoint is never fetched again, and the loader's batch: one filtered list call per 100 ids.
import { compileEndpointFilter, type Endpoint, MAX_PAGE_SIZE, type NgrokClient } from '../upstream';
import { readPage, type Slice } from './forward-pages';
import { Listings } from './listings';

export class EndpointLookup {
  private readonly seen = new Map<string, Endpoint>();

  constructor(
    private readonly client: NgrokClient,
    /** The operation's lists in flight, of every kind (shared with the other lookups). */
    private readonly listings: Listings = new Listings(),
  ) {}

  /** `first` endpoints older than `beforeId` (newest first) that match `filter` (a CEL expression). */
  page(first: number, beforeId: string | undefined, filter: string | undefined): Promise<Slice<Endpoint>> {
    const work = readPage<Endpoint>(
      async (limit, before) => {
        const result = await this.client.listEndpoints({ limit, beforeId: before, filter });
        for (const e of result.endpoints) this.seen.set(e.id, e);
        return { items: result.endpoints, nextPageUri: result.nextPageUri };
      },
      first,
      beforeId,
    );
    return this.listings.track(work);
  }

  /** What a write answered: later reads of this operation see it. */
  remember(endpoint: Endpoint): void {
    this.seen.set(endpoint.id, endpoint);
  }

  forget(id: string): void {
    this.seen.delete(id);
  }

  /** Batch function of the endpoint loader: known endpoints, then `obj.id in [...]` per 100 ids. */
  async load(ids: readonly string[]): Promise<(Endpoint | null | Error)[]> {
    await this.listings.settled();
    const unknown = [...new Set(ids.filter((id) => !this.seen.has(id)))];
    const failed = new Map<string, Error>();
    const chunks: string[][] = [];
    for (let i = 0; i < unknown.length; i += MAX_PAGE_SIZE) chunks.push(unknown.slice(i, i + MAX_PAGE_SIZE));
    await Promise.all(
      chunks.map(async (chunk) => {
        try {
          const filter = compileEndpointFilter({ ids: chunk });
          const result = await this.client.listEndpoints({ limit: MAX_PAGE_SIZE, filter });
          for (const e of result.endpoints) this.seen.set(e.id, e);
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          for (const id of chunk) failed.set(id, failure);
        }
      }),
    );
    return ids.map((id) => this.seen.get(id) ?? failed.get(id) ?? null);
  }
}
