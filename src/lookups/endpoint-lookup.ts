// One operation's endpoints: the pages it listed (filtered or not), and its endpoints by id, so a
// listed endpoint is never fetched again; the unknown ids of a batch cost one filtered list call per
// 100 ids (`obj.id in [...]`).
import { compileEndpointFilter, type Endpoint, MAX_PAGE_SIZE, type NgrokClient } from '../upstream';
import { readPage, type Slice } from './forward-pages';
import { asError, ItemLookup, pagesOf } from './item-lookup';
import type { Listings } from './listings';

export class EndpointLookup extends ItemLookup<Endpoint> {
  constructor(
    private readonly client: NgrokClient,
    listings: Listings,
  ) {
    super(listings);
  }

  /** `first` endpoints older than `beforeId` (newest first) that match `filter` (a CEL expression). */
  page(first: number, beforeId: string | undefined, filter: string | undefined): Promise<Slice<Endpoint>> {
    const work = readPage<Endpoint>(
      async (limit, before) => {
        const result = await this.client.listEndpoints({ limit, beforeId: before, filter });
        this.listed(result.endpoints);
        return { items: result.endpoints, nextPageUri: result.nextPageUri };
      },
      first,
      beforeId,
    );
    return this.listings.track(work);
  }

  /** One filtered list call per 100 ids. */
  protected async fetch(ids: readonly string[], failed: Map<string, Error>): Promise<void> {
    await Promise.all(
      pagesOf(ids).map(async (chunk) => {
        try {
          const filter = compileEndpointFilter({ ids: chunk });
          this.listed((await this.client.listEndpoints({ limit: MAX_PAGE_SIZE, filter })).endpoints);
        } catch (error) {
          for (const id of chunk) failed.set(id, asError(error));
        }
      }),
    );
  }
}
