// What a resource kind of the ngrok API is, written once per kind (kinds/): its id prefix, its
// GraphQL type, its REST routes, its JSON reader and how the upstream lets it be fetched. The id
// checks, the node kinds, the lookups, the cursors, the route names and URL templates, and the
// planner's join costs are all read off these descriptors (index.ts holds the table).

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How the objects of one kind are fetched when several are asked for in one batch (one DataLoader
 * dispatch): `list-by-ids` is one filtered list call per 100 distinct ids; `get-each` one GET per
 * distinct id; `list-then-get` one list of the newest 100 (when two or more are asked) and then one
 * GET per id it missed (an upstream list without an id filter: /tunnels).
 */
export type Fetching = 'list-by-ids' | 'get-each' | 'list-then-get';

/** A kind of ngrok id: its prefix (`tn`) and how a message names one (`tunnel`). */
export interface IdKindSpec<K extends string = string> {
  readonly kind: K;
  readonly prefix: string;
  readonly noun: string;
}

/** One REST route of a kind: its method and its path after the kind's own (`/{id}`, `/{id}/stop`). */
export interface RouteSpec {
  readonly method: Method;
  readonly template: string;
}

/** A list route (`GET {path}`) and a GET by id (`GET {path}/{id}`): every node kind has both. */
export const LIST_ROUTE = { method: 'GET', template: '' } as const satisfies RouteSpec;
export const GET_ROUTE = { method: 'GET', template: '/{id}' } as const satisfies RouteSpec;

/**
 * How a kind whose list takes `filter=obj.id in [...]` is fetched: by id and by reference through its
 * filtered list, one call per 100 ids, once the operation's lists in flight have settled.
 */
export const LISTED_BY_IDS = {
  filtersById: true,
  byId: 'list-by-ids',
  byReference: 'list-by-ids',
  batch: 'after-lists',
} as const;

/** What every described kind has: a GraphQL type and REST routes under one collection path. */
export interface Described<R extends string = string> {
  /** The GraphQL object type that serves it. */
  readonly typeName: string;
  /** For messages: "tunnel session". */
  readonly noun: string;
  /** The collection's path segments (`['tunnel_sessions']`); a list's JSON key is its last. */
  readonly path: readonly string[];
  /** The list's JSON key when it is not the path's last segment (`https_edges`, `backends`). */
  readonly listKey?: string;
  /** Every route, by the name metrics and logs give it. */
  readonly routes: Readonly<Record<R, RouteSpec>>;
}

/** A kind the account lists and the schema serves as a node: fetched by id and by reference. */
export interface Resource<
  T extends { readonly id: string } = { readonly id: string },
  K extends string = string,
  R extends string = string,
> extends IdKindSpec<K>,
    Described<R> {
  /** Its list route (limit, before_id, and filter when `filtersById`) and its GET by id. */
  readonly list: R;
  readonly get: R;
  /** Reads one item of the upstream's JSON, checked at the edge (json.ts). */
  readonly parse: (json: unknown) => T;
  /** The list takes `filter=obj.id in [...]`: many ids cost one list call per 100. */
  readonly filtersById: boolean;
  /** How node, nodes and by-id fields fetch it, and how Ref.node does. */
  readonly byId: Fetching;
  readonly byReference: Fetching;
  /**
   * A batch by id waits for the operation's lists in flight (they may hold its ids), or goes out on
   * DataLoader's next tick (endpoints: their references rarely sit in another list of the operation).
   */
  readonly batch: 'after-lists' | 'next-tick';
  /**
   * Error codes with which the upstream says the account has none of these at all (edges since their
   * shutdown: ERR_NGROK_7008): its list reads as empty and a GET as no such item, not as an error.
   */
  readonly noneOn?: readonly string[];
}

/**
 * How a kind whose list has no id filter is read by id and by reference: one GET per distinct id of
 * a batch, once the operation's lists in flight have settled (they may hold the ids).
 */
export const FETCHED_EACH = {
  filtersById: false,
  byId: 'get-each',
  byReference: 'get-each',
  batch: 'after-lists',
} as const;
