// One page of a newest-first upstream list (limit/before_id) from one upstream call, with its
// hasNextPage: how every lookup reads a page of its kind (tunnels, endpoints, the account graph).
import { MAX_PAGE_SIZE } from '../upstream';

export interface Slice<T> {
  readonly items: readonly T[];
  /** Exact but after a short upstream page (see readPage); may cost one more call, made only when asked. */
  readonly hasNextPage: () => Promise<boolean>;
}

/** One upstream page: `limit` items older than `beforeId`. */
type PageCall<T> = (
  limit: number,
  beforeId: string | undefined,
) => Promise<{ items: readonly T[]; nextPageUri: string | null }>;

/**
 * `first` items older than `beforeId` (newest first), in one upstream call, so a page costs exactly
 * what the demand planner predicts (src/gateway/limits/demand/). Below the upstream's page cap it asks for
 * one extra item, so hasNextPage needs no second call; at the cap it looks ahead only when asked.
 * A page the upstream sends short while still giving a next_page_uri is passed on as it is, with
 * hasNextPage true: the next page may be empty, as the upstream's own next_page_uri may.
 */
export async function readPage<T extends { readonly id: string }>(
  list: PageCall<T>,
  first: number,
  beforeId: string | undefined,
): Promise<Slice<T>> {
  const asked = Math.min(MAX_PAGE_SIZE, first + 1);
  const result = await list(asked, beforeId);
  const items = result.items.slice(0, first);
  const end = items.at(-1);
  if (result.items.length > first) return { items, hasNextPage: async () => true };
  if (result.nextPageUri === null || end === undefined) return { items, hasNextPage: async () => false };
  if (result.items.length < asked) return { items, hasNextPage: async () => true };
  // A full page at the cap with a next_page_uri: look one item ahead, once, on demand.
  let probe: Promise<boolean> | undefined;
  return {
    items,
    hasNextPage: () => {
      probe ??= list(1, end.id).then((r) => r.items.length > 0);
      return probe;
    },
  };
}
