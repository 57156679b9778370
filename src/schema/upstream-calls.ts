// How a field reaches the upstream, declared beside the field (its `extensions.upstreamCalls`), so
// the demand planner (src/gateway/limits/demand/) predicts an operation's calls from the schema alone:
// a field that fetches and declares nothing is caught by the planner's property test.
import type { IdKind } from '../ids';

/**
 * How the objects of one kind are fetched when several are asked for in one batch (one DataLoader
 * dispatch): `list-by-ids` is one filtered list call per 100 distinct ids; `get-each` one GET per
 * distinct id; `list-then-get` one list of the newest 100 (when two or more are asked) and then one
 * GET per id it missed (an upstream list without an id filter: /tunnels).
 */
export type Fetching = 'list-by-ids' | 'get-each' | 'list-then-get';

/** The object type of a kind and how it is fetched. */
export interface Fetched {
  readonly typename: string;
  readonly fetching: Fetching;
}

/** The kinds an id can name, and how each is fetched; a kind left out resolves to null, no call. */
export type FetchingByKind = Readonly<Partial<Record<IdKind, Fetched>>>;

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
  /** A reference (Ref, or a list of them) whose `node` may name these kinds: Ref.node joins them. */
  | { readonly kind: 'refers'; readonly to: readonly IdKind[] }
  /** Ref.node: the object the reference names, fetched for the kinds its field `refers` to. */
  | { readonly kind: 'join'; readonly fetching: FetchingByKind }
  /** One object per distinct key of the field's arguments, one GET each (a backend module by route). */
  | { readonly kind: 'get' }
  /** A mutation: exactly `calls` writes, never retried, before its answer's own fields. */
  | { readonly kind: 'write'; readonly calls: number }
  /** A subscription: the account's poller makes the calls; only each event's joins are the subscriber's. */
  | { readonly kind: 'stream' };

export const UPSTREAM_CALLS = 'upstreamCalls';

/** The field option that declares `calls`: `{ ...upstreamCalls({ kind: 'page' }) }`. */
export const upstreamCalls = (calls: UpstreamCalls) => ({ extensions: { [UPSTREAM_CALLS]: calls } });
