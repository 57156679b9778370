// The five /endpoints operations. The list is filtered before it is paged, so a filtered page
// costs one call and next_page_uri carries the filter on.

import { notFound } from '../api/errors';
import type { OperationRequest, Outcome } from '../api/operation-request';
import type { EndpointRoute } from '../api/routes';
import { checkNoBody, checkNoQuery, type ListSpec, parseListQuery } from '../api/validate';
import { filterParam } from '../filter';
import { pageOf, presentList } from '../state/paging';
import type { AccountStore } from '../state/store';
import type { UpstreamEndpoint } from '../types';
import { parseCreateBody, parseUpdateBody } from './input';
import { presentEndpoint } from './present';
import { createCloudEndpoint, deleteCloudEndpoint, updateCloudEndpoint } from './writes';

/** An operation on an /endpoints route. */
type EndpointRequest = Omit<OperationRequest, 'match'> & { match: EndpointRoute };

const LIST_SPEC: ListSpec = { prefix: 'ep', extra: ['filter', 'id', 'url'], repeatable: ['id', 'url'] };
/** Fields that hold lists: the API refuses to filter on them. */
const LIST_FIELDS: ReadonlySet<string> = new Set(['bindings']);

/** Every endpoint of the account as the list shows it, newest first (all pages). */
export function allEndpoints(account: AccountStore, base: string): UpstreamEndpoint[] {
  return account.endpointRecords().map((record) => presentEndpoint(base, record, account.graph));
}

function list(request: EndpointRequest): Outcome {
  const { query } = request;
  const { limit, beforeId } = parseListQuery(query, LIST_SPEC);
  checkNoBody(request.method, request.body);
  const predicate = filterParam(query, LIST_FIELDS);
  // The deprecated `id` and `url` parameters: any of the given values, and-ed with the filter.
  const ids = query.getAll('id');
  const urls = query.getAll('url');
  const wanted = allEndpoints(request.account, request.base).filter(
    (endpoint) =>
      (ids.length === 0 || ids.includes(endpoint.id)) &&
      (urls.length === 0 || urls.includes(endpoint.url)) &&
      (predicate === undefined || predicate(endpoint)),
  );
  const page = pageOf(wanted, limit, beforeId);
  const carried = [...query].filter(([name]) => name === 'filter' || name === 'id' || name === 'url');
  return {
    status: 200,
    json: presentList(request.base, 'endpoints', page.items, {
      limit,
      hasMore: page.hasMore,
      lastId: page.items.at(-1)?.id,
      carried,
    }),
  };
}

export function runEndpointOperation(request: EndpointRequest): Outcome {
  const { match, account, base } = request;
  if (match.name === 'listEndpoints') return list(request);
  checkNoQuery(request.query);
  if (match.name === 'createEndpoint') {
    const endpoint = createCloudEndpoint(account, parseCreateBody(request.contentType, request.body));
    return {
      status: 201,
      json: presentEndpoint(base, { id: endpoint.id, type: 'cloud', endpoint }, account.graph),
    };
  }
  if (match.name === 'updateEndpoint') {
    // Body errors come before lookups: the request is decoded before the handler runs.
    const fields = parseUpdateBody(request.contentType, request.body);
    const endpoint = updateCloudEndpoint(account, match.endpointId, fields);
    return {
      status: 200,
      json: presentEndpoint(base, { id: endpoint.id, type: 'cloud', endpoint }, account.graph),
    };
  }
  checkNoBody(request.method, request.body);
  if (match.name === 'deleteEndpoint') {
    deleteCloudEndpoint(account, match.endpointId);
    return { status: 204 };
  }
  const record = account.getEndpoint(match.endpointId);
  if (record === undefined) throw notFound();
  return { status: 200, json: presentEndpoint(base, record, account.graph) };
}
