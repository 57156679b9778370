// Paging shared by every list: items are held newest first (ids sort by creation time, so that
// is descending id order), `before_id` is a position in that order, held or not, and a page is
// sent as `{<collection>: [...], uri, next_page_uri}`.

export interface Page<T> {
  items: T[];
  /** True when an item older than the page's last one exists. */
  hasMore: boolean;
}

/** Binary search for the first index whose id sorts below `beforeId`. */
export function firstOlderThan(items: readonly { id: string }[], beforeId: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const id = items[mid]?.id ?? '';
    if (id < beforeId) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Up to `limit` items older than `beforeId` (from the newest when absent), newest first. */
export function pageOf<T extends { id: string }>(
  items: readonly T[],
  limit: number,
  beforeId?: string,
): Page<T> {
  const start = beforeId === undefined ? 0 : firstOlderThan(items, beforeId);
  return { items: items.slice(start, start + limit), hasMore: start + limit < items.length };
}

/** Newest first by id: the order of every list. */
export function newestFirst(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * A page of a list: `{<collection>: [...], uri, next_page_uri}`. `carried` are query parameters
 * (such as a filter) the next page must repeat to continue the same list.
 */
export function presentList(
  base: string,
  collection: string,
  items: readonly unknown[],
  page: {
    limit: number;
    hasMore: boolean;
    /** The id of the page's last (oldest) item. */
    lastId: string | undefined;
    carried?: readonly (readonly [string, string])[];
  },
): Record<string, unknown> {
  const uri = `${base}/${collection}`;
  const carried = (page.carried ?? [])
    .map(([name, value]) => `&${name}=${encodeURIComponent(value)}`)
    .join('');
  return {
    [collection]: items,
    uri,
    // Exact: null precisely when no older item exists.
    next_page_uri:
      page.hasMore && page.lastId !== undefined
        ? `${uri}?before_id=${encodeURIComponent(page.lastId)}&limit=${page.limit}${carried}`
        : null,
  };
}
