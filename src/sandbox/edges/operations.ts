// GET /edges/https[/{id}] and GET /backends/<kind>[/{id}]: paged newest first like every list (no
// filter: the provider documents none for edges or backends). An account whose edges are retired
// (`edgesRetired`) answers its edge list and edges with 400 ERR_NGROK_7008; backends still answer.
import { apiError, notFound } from '../api/errors';
import type { OperationRequest, Outcome } from '../api/operation-request';
import { BACKEND_LISTS, type EdgeRoute } from '../api/routes';
import { checkNoBody, checkNoQuery, parseListQuery } from '../api/validate';
import { newestFirst, pageOf, presentList } from '../state/paging';
import { presentBackend, presentEdge } from './present';

type EdgeRequest = Omit<OperationRequest, 'match'> & { match: EdgeRoute };

/** A page of `ids` (newest first) under `key`, at `path`, each item presented by `present`. */
function listOf(
  request: EdgeRequest,
  path: string,
  key: string,
  prefix: string,
  ids: readonly string[],
  present: (id: string) => unknown,
): Outcome {
  const { limit, beforeId } = parseListQuery(request.query, { prefix });
  checkNoBody(request.method, request.body);
  const items = ids.map((id) => ({ id })).sort(newestFirst);
  const page = pageOf(items, limit, beforeId);
  const { [path]: listed, ...rest } = presentList(
    request.base,
    path,
    page.items.map((i) => present(i.id)),
    {
      limit,
      hasMore: page.hasMore,
      lastId: page.items.at(-1)?.id,
    },
  );
  return { status: 200, json: { [key]: listed, ...rest } };
}

export function runEdgeOperation(request: EdgeRequest): Outcome {
  const { match, account, base } = request;
  if (match.name === 'listHttpsEdges' || match.name === 'getHttpsEdge') {
    if (account.edgeDetails.retired) throw apiError('ERR_NGROK_7008');
    if (match.name === 'listHttpsEdges') {
      const ids = account.edgeIds();
      return listOf(request, 'edges/https', 'https_edges', 'edghts', ids, (id) =>
        presentEdge(base, account, id),
      );
    }
  }
  if ('kind' in match && !('id' in match)) {
    const { prefix } = BACKEND_LISTS[match.kind];
    const ids = account.backendIds().filter((id) => id.startsWith(`${prefix}_`));
    return listOf(request, `backends/${match.kind}`, 'backends', prefix, ids, (id) =>
      presentBackend(base, account, match.kind, id),
    );
  }
  checkNoQuery(request.query);
  checkNoBody(request.method, request.body);
  if (!('kind' in match)) {
    const edge = presentEdge(base, account, match.id);
    if (edge === undefined) throw notFound();
    return { status: 200, json: edge };
  }
  const { prefix } = BACKEND_LISTS[match.kind];
  if (!match.id.startsWith(`${prefix}_`) || !account.hasBackend(match.id)) throw notFound();
  return { status: 200, json: presentBackend(base, account, match.kind, match.id) };
}
