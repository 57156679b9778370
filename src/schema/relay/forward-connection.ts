// What the forward-only connections (tunnels, endpoints, the account graph's lists) share: their
// paging arguments checked, and a page of items shaped as a Relay connection with a lazy, exact
// hasNextPage.
import { badInput } from '../../errors';
import type { Slice } from '../../lookups';
import { MAX_PAGE_SIZE } from '../../upstream';
import type { CursorCodec } from './cursors';

const DEFAULT_FIRST = 20;

export interface PagingArgs {
  readonly first?: number | null;
  readonly after?: string | null;
  readonly last?: number | null;
  readonly before?: string | null;
}

/** A page's `first`, 20 when absent; outside 1..100 it is BAD_USER_INPUT (here and in the demand planner). */
export function checkedFirst(given: unknown): number {
  const first = given ?? DEFAULT_FIRST;
  if (typeof first !== 'number' || !Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE)
    throw badInput(`first must be from 1 to ${MAX_PAGE_SIZE}, got ${String(first)}.`);
  return first;
}

/** first (1..100, default 20) and the upstream cursor in `after`; last/before are BAD_USER_INPUT. */
function forwardPaging(
  name: string,
  args: PagingArgs,
  cursors: CursorCodec,
): { first: number; beforeId: string | undefined } {
  if (args.last != null || args.before != null) {
    throw badInput(`${name} pages forward only: use first and after (the ngrok API cannot page backwards).`);
  }
  const first = checkedFirst(args.first);
  return { first, beforeId: args.after == null ? undefined : cursors.decode(args.after) };
}

/** An edge whose cursor is encoded only when a client selects it (`nodes` alone needs none). */
class Edge<T extends { readonly id: string }> {
  constructor(
    readonly node: T,
    private readonly cursors: CursorCodec,
  ) {}

  get cursor(): string {
    return this.cursors.encode(this.node.id);
  }
}

function connectionOf<T extends { readonly id: string }>(slice: Slice<T>, cursors: CursorCodec) {
  const edges = slice.items.map((node) => new Edge(node, cursors));
  return {
    edges,
    pageInfo: {
      // Resolved lazily: at first = 100 knowing it can cost one more upstream call.
      get hasNextPage() {
        return slice.hasNextPage() as unknown as boolean;
      },
      hasPreviousPage: false,
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return edges.at(-1)?.cursor ?? null;
      },
    },
  };
}

/** An empty page, for a filter that can match nothing (no call). */
export const EMPTY_SLICE: Slice<never> = { items: [], hasNextPage: async () => false };

/**
 * The connection `name` resolved: its paging arguments checked, then `read` asked for the page of
 * `first` items before the cursor's.
 */
export async function forwardPage<T extends { readonly id: string }>(
  name: string,
  args: PagingArgs,
  cursors: CursorCodec,
  read: (first: number, beforeId: string | undefined) => Promise<Slice<T>>,
) {
  const { first, beforeId } = forwardPaging(name, args, cursors);
  return connectionOf(await read(first, beforeId), cursors);
}
