// One page of a newest-first upstream list (limit/before_id), filled from as many upstream pages as
// it takes, with an exact hasNextPage: shared by the tunnels and the endpoints connections.
import { MAX_PAGE_SIZE } from '../upstream';

/** Upstream pages fetched to fill one connection page when the upstream returns short pages. */
const MAX_FILL_CALLS = 3;

export interface Slice<T> {
  readonly items: readonly T[];
  /** Exact; may cost one more upstream call, made only when a client asks for it. */
  readonly hasNextPage: () => Promise<boolean>;
}

/** One upstream page: `limit` items older than `beforeId`. */
export type ListPage<T> = (
  limit: number,
  beforeId: string | undefined,
) => Promise<{ items: readonly T[]; nextPageUri: string | null }>;

/**
 * `first` items older than `beforeId` (newest first). Below the upstream's page cap it asks for
 * one extra item, so hasNextPage needs no second call; at the cap it probes only when asked.
 */
export async function fillPage<T extends { readonly id: string }>(
  list: ListPage<T>,
  first: number,
  beforeId: string | undefined,
): Promise<Slice<T>> {
  const want = first + 1;
  const collected: T[] = [];
  let cursor = beforeId;
  let more = true;
  for (let call = 0; call < MAX_FILL_CALLS && more && collected.length < first; call += 1) {
    const result = await list(Math.min(MAX_PAGE_SIZE, want - collected.length), cursor);
    collected.push(...result.items);
    const last = result.items.at(-1);
    more = result.nextPageUri !== null && last !== undefined;
    cursor = last?.id ?? cursor;
  }
  const items = collected.slice(0, first);
  if (collected.length > first) return { items, hasNextPage: async () => true };
  const end = items.at(-1);
  if (!more || end === undefined) return { items, hasNextPage: async () => false };
  // The upstream hinted at more (first = the page cap, or short pages): look one item ahead, once, on demand.
  let probe: Promise<boolean> | undefined;
  return {
    items,
    hasNextPage: () => {
      probe ??= list(1, end.id).then((r) => r.items.length > 0);
      return probe;
    },
  };
}
