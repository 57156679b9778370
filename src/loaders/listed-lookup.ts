// One operation's view of a listed resource (tunnel sessions, reserved domains, reserved addresses):
// its pages, every item a page showed (so a listed item is never fetched again), and the loader of
// items by id, whose batch holds every id the response asked for: one filtered list call per 100
// unknown ids (`filter=obj.id in [...]`), or one GET per unknown id where the list cannot filter.
import DataLoader from 'dataloader';
import { anyOf, type ListedResource, MAX_PAGE_SIZE, type NgrokClient } from '../upstream';
import { readPage, type Slice } from './forward-pages';
import type { Listings } from './listings';

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

export class ListedLookup<T extends { readonly id: string }> {
  private readonly seen = new Map<string, T>();
  /** Items by id, null for an id the account does not have; one batch per response (Listings). */
  readonly loader: DataLoader<string, T | null>;

  constructor(
    private readonly client: NgrokClient,
    private readonly resource: ListedResource<T>,
    private readonly listings: Listings,
  ) {
    this.loader = new DataLoader((ids) => this.load(ids), { batchScheduleFn: listings.schedule });
  }

  /** `first` items older than `beforeId` (newest first) that match `filter` (a CEL expression). */
  page(first: number, beforeId: string | undefined, filter?: string): Promise<Slice<T>> {
    const work = readPage<T>(
      async (limit, before) => {
        const result = await this.client.listItems(this.resource, { limit, beforeId: before, filter });
        this.remember(result.items);
        return result;
      },
      first,
      beforeId,
    );
    return this.listings.track(work);
  }

  /** After a write to it: this operation reads the item again instead of what it saw before. */
  forget(id: string): void {
    this.seen.delete(id);
    this.loader.clear(id);
  }

  private remember(items: readonly T[]): void {
    for (const item of items) this.seen.set(item.id, item);
  }

  private async load(ids: readonly string[]): Promise<(T | null | Error)[]> {
    await this.listings.settled();
    const unknown = [...new Set(ids.filter((id) => !this.seen.has(id)))];
    const failed = new Map<string, Error>();
    const fetches = this.resource.filtersById ? this.listed(unknown, failed) : this.fetched(unknown, failed);
    await Promise.all(fetches);
    return ids.map((id) => this.seen.get(id) ?? failed.get(id) ?? null);
  }

  /** One list call per 100 ids. */
  private listed(ids: readonly string[], failed: Map<string, Error>): Promise<void>[] {
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += MAX_PAGE_SIZE) chunks.push(ids.slice(i, i + MAX_PAGE_SIZE));
    return chunks.map(async (chunk) => {
      try {
        const filter = anyOf('id', chunk);
        this.remember((await this.client.listItems(this.resource, { limit: MAX_PAGE_SIZE, filter })).items);
      } catch (error) {
        for (const id of chunk) failed.set(id, asError(error));
      }
    });
  }

  /** One GET per id. */
  private fetched(ids: readonly string[], failed: Map<string, Error>): Promise<void>[] {
    return ids.map(async (id) => {
      try {
        const item = await this.client.getItem(this.resource, id);
        if (item) this.remember([item]);
      } catch (error) {
        failed.set(id, asError(error));
      }
    });
  }
}
