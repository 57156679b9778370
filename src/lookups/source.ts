// What the lookups read from: the upstream client (every request's), or an observation of the
// account (observation-source.ts: a snapshot of some kinds, answering without a call). The lookups
// batch, page and prime the same way over either.

import type { Resource } from '../resources';
import type { BackendModule, ListedPage, ListedPageRequest, RouteKey } from '../upstream';

export interface Source {
  /** A page of `resource`'s list, newest first (`ids`: only those, one filtered list of at most 100). */
  listItems<T extends { readonly id: string }>(
    resource: Resource<T>,
    page: ListedPageRequest,
  ): Promise<ListedPage<T>>;
  /** One item by id, or null when the account has none. */
  getItem<T extends { readonly id: string }>(resource: Resource<T>, id: string): Promise<T | null>;
  /** The backend module of an HTTPS edge route, or null when it has none. */
  getBackendModule(route: RouteKey): Promise<BackendModule | null>;
}
