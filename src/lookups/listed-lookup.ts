// One operation's view of a listed resource of the account graph (tunnel sessions, reserved domains,
// reserved addresses): its pages, and its items by id, whose batch holds every id the response
// asked for (Listings.schedule): one filtered list call per 100 unknown ids (`filter=obj.id in
// [...]`), or one GET per unknown id where the list cannot filter.
import { anyOf, type ListedResource, MAX_PAGE_SIZE, type NgrokClient } from '../upstream';
import { readPage, type Slice } from './forward-pages';
import { asError, ItemLookup, pagesOf } from './item-lookup';
import type { Listings } from './listings';

export class ListedLookup<T extends { readonly id: string }> extends ItemLookup<T> {
  constructor(
    private readonly client: NgrokClient,
    private readonly resource: ListedResource<T>,
    listings: Listings,
  ) {
    super(listings, 'after-lists');
  }

  /** `first` items older than `beforeId` (newest first) that match `filter` (a CEL expression). */
  page(first: number, beforeId: string | undefined, filter?: string): Promise<Slice<T>> {
    const work = readPage<T>(
      async (limit, before) => {
        const result = await this.client.listItems(this.resource, { limit, beforeId: before, filter });
        this.listed(result.items);
        return result;
      },
      first,
      beforeId,
    );
    return this.listings.track(work);
  }

  protected async fetch(ids: readonly string[], failed: Map<string, Error>): Promise<void> {
    await Promise.all(this.resource.filtersById ? this.byList(ids, failed) : this.byGet(ids, failed));
  }

  /** One list call per 100 ids. */
  private byList(ids: readonly string[], failed: Map<string, Error>): Promise<void>[] {
    return pagesOf(ids).map(async (chunk) => {
      try {
        const filter = anyOf('id', chunk);
        this.listed((await this.client.listItems(this.resource, { limit: MAX_PAGE_SIZE, filter })).items);
      } catch (error) {
        for (const id of chunk) failed.set(id, asError(error));
      }
    });
  }

  /** One GET per id. */
  private byGet(ids: readonly string[], failed: Map<string, Error>): Promise<void>[] {
    return ids.map(async (id) => {
      try {
        const item = await this.client.getItem(this.resource, id);
        if (item) this.listed([item]);
      } catch (error) {
        failed.set(id, asError(error));
      }
    });
  }
}
