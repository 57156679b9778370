// A source that answers from one observation of the account (the items of some kinds as one poll
// saw them, newest first) without an upstream call: pages as the upstream pages them (the filter
// first, with the upstream's meaning: observed-filter.ts; then limit, before_id a position in the
// newest-first order, held or not), by-id lists, and GETs. A read it cannot answer from what it holds
// (a kind not observed, a backend module) is refused rather than sent upstream.
import { GatewayError } from '../errors';
import type { Resource } from '../resources';
import type { BackendModule, ListedPage, ListedPageRequest } from '../upstream';
import { filtered } from './observed-filter';
import type { Source } from './source';

/** What one observation holds: each observed kind's items, newest first (descending id). */
export type Observation = ReadonlyMap<Resource, readonly { readonly id: string }[]>;

const notObserved = (what: string): GatewayError =>
  new GatewayError('INTERNAL_SERVER_ERROR', `The live observation does not hold ${what}.`);

/** The first index whose id sorts below `beforeId` (ids sort by creation, newest first). */
function firstOlderThan(items: readonly { readonly id: string }[], beforeId: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((items[mid]?.id ?? '') < beforeId) high = mid;
    else low = mid + 1;
  }
  return low;
}

export class ObservationSource implements Source {
  constructor(private readonly observation: Observation) {}

  private itemsOf<T extends { readonly id: string }>(resource: Resource<T>): readonly T[] {
    const items = this.observation.get(resource as Resource);
    if (items === undefined) throw notObserved(`${resource.noun}s`);
    return items as readonly T[];
  }

  async listItems<T extends { readonly id: string }>(
    resource: Resource<T>,
    page: ListedPageRequest,
  ): Promise<ListedPage<T>> {
    let items = this.itemsOf(resource);
    if (page.filter !== undefined) items = filtered(items, page.filter);
    if (page.ids !== undefined) {
      const wanted = new Set(page.ids);
      items = items.filter((item) => wanted.has(item.id));
    }
    const start = page.beforeId === undefined ? 0 : firstOlderThan(items, page.beforeId);
    const end = start + page.limit;
    // Any non-null next_page_uri says "more follow"; readers never follow it.
    return { items: items.slice(start, end), nextPageUri: end < items.length ? 'observed' : null };
  }

  async getItem<T extends { readonly id: string }>(resource: Resource<T>, id: string): Promise<T | null> {
    return this.itemsOf(resource).find((item) => item.id === id) ?? null;
  }

  async getBackendModule(): Promise<BackendModule | null> {
    throw notObserved('backend modules');
  }
}
