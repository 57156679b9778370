// The reads every node kind offers (resources/): a page of its list, newest first (limit/before_id,
// and `filter` where the upstream takes one), and a GET by id. One pair of calls for every kind,
// from its descriptor's routes and JSON reader.
import { UpstreamError } from '../../errors';
import type { Resource } from '../../resources';
import { TUNNEL } from '../../resources';
import { page } from '../../resources/json';
import { routeCall } from '../../resources/routes';
import type { UpstreamRequest } from '../call/request';
import type { UpstreamKey } from '../call/upstream-key';
import type { UpstreamTransport } from '../transport';
import { read, readOrNull } from './calls';
import { anyOf } from './cel';

/** The upstream's largest page (limit 1..100). */
export const MAX_PAGE_SIZE = 100;

export interface ListedPageRequest {
  /** 1..100, the upstream's own bounds. */
  readonly limit: number;
  /** Only items created before this one (the upstream's cursor). */
  readonly beforeId?: string;
  /** A CEL expression; absent: every item. */
  readonly filter?: string;
  /** Only the items with these ids (at most 100): sent as `filter=obj.id in [...]`. */
  readonly ids?: readonly string[];
  /** 'poll': the live poller's walk (see UpstreamRequest.origin). */
  readonly origin?: 'poll';
}

export interface ListedPage<T> {
  readonly items: readonly T[];
  readonly nextPageUri: string | null;
}

export const listItemsRequest = <T extends { readonly id: string }>(
  resource: Resource<T>,
  request: ListedPageRequest,
): UpstreamRequest => ({
  ...routeCall(resource.list),
  query: {
    limit: request.limit,
    before_id: request.beforeId,
    filter: request.ids === undefined ? request.filter : anyOf('id', request.ids),
  },
  ...(request.origin ? { origin: request.origin } : {}),
});

export const getItemRequest = <T extends { readonly id: string }>(
  resource: Resource<T>,
  id: string,
): UpstreamRequest => ({
  ...routeCall(resource.get, { id }),
});

/** The cheapest read there is, which the readiness check sends (UpstreamTransport.checkReadiness). */
export const READINESS_REQUEST: UpstreamRequest = listItemsRequest(TUNNEL, { limit: 1 });

/**
 * Each resource's page reader, made once: identical list calls in flight share one answer only when
 * they read it with the same function (stages/coalesce.ts).
 */
const pageReaders = new WeakMap<object, (json: unknown) => ListedPage<unknown>>();

function pageReader<T extends { readonly id: string }>(
  resource: Resource<T>,
): (json: unknown) => ListedPage<T> {
  let reader = pageReaders.get(resource);
  if (reader === undefined) {
    const key = resource.listKey ?? resource.path.at(-1) ?? '';
    reader = (json) => page(json, key, resource.parse);
    pageReaders.set(resource, reader);
  }
  return reader as (json: unknown) => ListedPage<T>;
}

/** True when `error` is the upstream saying the account has no items of `resource` at all (noneOn). */
const saysNone = (resource: Resource, error: unknown): boolean =>
  error instanceof UpstreamError &&
  error.errorCode !== undefined &&
  resource.noneOn?.includes(error.errorCode) === true;

export async function listItems<T extends { readonly id: string }>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  resource: Resource<T>,
  request: ListedPageRequest,
): Promise<ListedPage<T>> {
  try {
    return await read(transport, key, listItemsRequest(resource, request), pageReader(resource));
  } catch (error) {
    if (saysNone(resource as Resource, error)) return { items: [], nextPageUri: null };
    throw error;
  }
}

/** One item, or null when the account has none with this id. */
export async function getItem<T extends { readonly id: string }>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  resource: Resource<T>,
  id: string,
): Promise<T | null> {
  try {
    return await readOrNull(transport, key, getItemRequest(resource, id), resource.parse);
  } catch (error) {
    if (saysNone(resource as Resource, error)) return null;
    throw error;
  }
}
