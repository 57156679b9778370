// Resources read the same way, one description each: a newest-first list (limit/before_id paging, a
// CEL `filter`) and a GET by id. The account graph's lists (tunnel sessions, reserved domains,
// reserved addresses) are three rows here rather than three copies of the same calls.

import type { RouteName, UpstreamRequest } from '../call/request';
import type { UpstreamKey } from '../call/upstream-key';
import type { UpstreamTransport } from '../transport';
import { read, readOrNull } from './calls';
import {
  parseReservedAddress,
  parseReservedDomain,
  parseTunnelSession,
  type ReservedAddress,
  type ReservedDomain,
  type TunnelSession,
} from './json/account-graph';
import { page } from './json/fields';

export interface ListedResource<T extends { readonly id: string }> {
  /** For messages: "tunnel session". */
  readonly noun: string;
  /** The path segment, which is also the list's JSON key. */
  readonly collection: string;
  readonly listRoute: RouteName;
  readonly getRoute: RouteName;
  readonly parse: (json: unknown) => T;
  /** The list takes `filter` on obj.id: many ids cost one list call per 100, else a GET each. */
  readonly filtersById: boolean;
}

export interface ListedPageRequest {
  /** 1..100, the upstream's own bounds. */
  readonly limit: number;
  /** Only items created before this one (the upstream's cursor). */
  readonly beforeId?: string;
  /** A CEL expression; absent: every item. */
  readonly filter?: string;
  /** 'poll': the live poller's walk (see UpstreamRequest.origin). */
  readonly origin?: 'poll';
}

export interface ListedPage<T> {
  readonly items: readonly T[];
  readonly nextPageUri: string | null;
}

export const TUNNEL_SESSIONS: ListedResource<TunnelSession> = {
  noun: 'tunnel session',
  collection: 'tunnel_sessions',
  listRoute: 'listTunnelSessions',
  getRoute: 'getTunnelSession',
  parse: parseTunnelSession,
  filtersById: true,
};

export const RESERVED_DOMAINS: ListedResource<ReservedDomain> = {
  noun: 'reserved domain',
  collection: 'reserved_domains',
  listRoute: 'listReservedDomains',
  getRoute: 'getReservedDomain',
  parse: parseReservedDomain,
  filtersById: true,
};

export const RESERVED_ADDRESSES: ListedResource<ReservedAddress> = {
  noun: 'reserved address',
  collection: 'reserved_addrs',
  listRoute: 'listReservedAddrs',
  getRoute: 'getReservedAddr',
  parse: parseReservedAddress,
  filtersById: true,
};

export const listItemsRequest = <T extends { readonly id: string }>(
  resource: ListedResource<T>,
  request: ListedPageRequest,
): UpstreamRequest => ({
  route: resource.listRoute,
  method: 'GET',
  segments: [resource.collection],
  query: { limit: request.limit, before_id: request.beforeId, filter: request.filter },
  ...(request.origin ? { origin: request.origin } : {}),
});

export const getItemRequest = <T extends { readonly id: string }>(
  resource: ListedResource<T>,
  id: string,
): UpstreamRequest => ({ route: resource.getRoute, method: 'GET', segments: [resource.collection, id] });

/**
 * Each resource's page reader, made once: identical list calls in flight share one answer only when
 * they read it with the same function (stages/coalesce.ts).
 */
const pageReaders = new WeakMap<object, (json: unknown) => ListedPage<unknown>>();

function pageReader<T extends { readonly id: string }>(
  resource: ListedResource<T>,
): (json: unknown) => ListedPage<T> {
  let reader = pageReaders.get(resource);
  if (reader === undefined) {
    reader = (json) => page(json, resource.collection, resource.parse);
    pageReaders.set(resource, reader);
  }
  return reader as (json: unknown) => ListedPage<T>;
}

export const listItems = <T extends { readonly id: string }>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  resource: ListedResource<T>,
  request: ListedPageRequest,
): Promise<ListedPage<T>> => read(transport, key, listItemsRequest(resource, request), pageReader(resource));

/** One item, or null when the account has none with this id. */
export const getItem = <T extends { readonly id: string }>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  resource: ListedResource<T>,
  id: string,
): Promise<T | null> => readOrNull(transport, key, getItemRequest(resource, id), resource.parse);
