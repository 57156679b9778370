// How a field reaches the upstream, declared beside the field (its `extensions.upstreamCalls`), so
// the demand planner (src/gateway/limits/demand/) predicts an operation's calls from the schema alone:
// a field that fetches and declares nothing is caught by the planner's property test.
import type { IdKind } from '../ids';
import type { Fetching, NodeResource } from '../resources';

export type { Fetching };

/** The object type of a kind and how it is fetched. */
export interface Fetched {
  readonly typename: string;
  readonly fetching: Fetching;
}

/** The kinds an id can name, and how each is fetched; a kind left out resolves to null, no call. */
export type FetchingByKind = Readonly<Partial<Record<IdKind, Fetched>>>;

/** How `resource` is fetched by id (node, nodes, its by-id field), from its descriptor. */
export const fetchedById = (resource: NodeResource): Fetched => ({
  typename: resource.typeName,
  fetching: resource.byId,
});

/** How `resource` is fetched by reference (Ref.node), from its descriptor. */
export const fetchedByReference = (resource: NodeResource): Fetched => ({
  typename: resource.typeName,
  fetching: resource.byReference,
});

export type UpstreamCalls =
  /**
   * A forward connection: one list call per page (`first` 1..100), and one more to look ahead when
   * `pageInfo.hasNextPage` is selected at first = 100 (the upstream's page cap).
   */
  | { readonly kind: 'page' }
  /** Objects by the ids in argument `arg` (an ID or a list of at most `most`), fetched as `fetching` says. */
  | {
      readonly kind: 'lookup';
      readonly arg: string;
      readonly most?: number;
      readonly fetching: FetchingByKind;
    }
  /**
   * A reference (Ref, or a list of at most `most` of them, 1 when absent) whose `node` may name these
   * kinds: Ref.node joins them.
   */
  | { readonly kind: 'refers'; readonly to: readonly IdKind[]; readonly most?: number }
  /** A list of objects that came with its parent (no call of its own), of at most `most` items. */
  | { readonly kind: 'embedded'; readonly most: number }
  /** Ref.node: the object the reference names, fetched for the kinds its field `refers` to. */
  | { readonly kind: 'join'; readonly fetching: FetchingByKind }
  /** One object per distinct key of the field's arguments, one GET each (a backend module by route). */
  | { readonly kind: 'get' }
  /** A mutation: exactly `calls` writes, never retried, before its answer's own fields. */
  | { readonly kind: 'write'; readonly calls: number }
  /** A subscription: the account's poller makes the calls; only each event's joins are the subscriber's. */
  | { readonly kind: 'stream' };

const UPSTREAM_CALLS = 'upstreamCalls';

/** What a field declares of its upstream calls (its `extensions.upstreamCalls`); undefined: none. */
export const declaredCalls = (
  field: { readonly extensions?: object | null } | undefined,
): UpstreamCalls | undefined =>
  (field?.extensions as Record<string, unknown> | null | undefined)?.[UPSTREAM_CALLS] as
    | UpstreamCalls
    | undefined;

/** The field option that declares `calls`: `{ ...upstreamCalls({ kind: 'page' }) }`. */
export const upstreamCalls = (calls: UpstreamCalls) => ({ extensions: { [UPSTREAM_CALLS]: calls } });

export const WRAPPER = 'upstreamWrapper';

/**
 * The option of a type that wraps objects rather than being one of the account's (a connection, its
 * edges, PageInfo, Ref): the planner counts the objects it carries, not the wrapper.
 */
export const wrapper = { extensions: { [WRAPPER]: true } } as const;
