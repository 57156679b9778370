// One operation's view of one node kind (resources/): its pages, read from the source and known from
// then on, and its items by id and by reference. How a batch of unknown ids is fetched is the
// kind's (listed-lookup.ts: one filtered list per 100 ids; fetched-lookup.ts: one GET each).
import type { Resource } from '../resources';
import { MAX_PAGE_SIZE } from '../upstream';
import { readPage, type Slice } from './forward-pages';
import { KeyedLookup } from './keyed-lookup';
import type { Listings } from './listings';
import type { Source } from './source';

/** `ids` in chunks of one upstream page (100): one filtered list call each. */
export function pagesOf(ids: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += MAX_PAGE_SIZE) chunks.push(ids.slice(i, i + MAX_PAGE_SIZE));
  return chunks;
}

export abstract class KindLookup<T extends { readonly id: string }> extends KeyedLookup<T, string> {
  constructor(
    protected readonly source: Source,
    protected readonly resource: Resource<T>,
    listings: Listings,
  ) {
    super(listings, resource.batch);
  }

  protected keyOf(item: T): string {
    return item.id;
  }

  protected keyString(id: string): string {
    return id;
  }

  /** `first` items older than `beforeId` (newest first) that match `filter` (a CEL expression). */
  page(first: number, beforeId: string | undefined, filter?: string): Promise<Slice<T>> {
    const work = readPage<T>(
      async (limit, before) => {
        const result = await this.source.listItems(this.resource, { limit, beforeId: before, filter });
        this.listed(result.items);
        return result;
      },
      first,
      beforeId,
    );
    return this.track(work);
  }

  /** The item a reference (Ref.node) points at, as the kind's `byReference` says to fetch it. */
  loadReference(id: string): Promise<T | null> {
    return this.load(id);
  }
}
