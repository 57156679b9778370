import { runAccountGraphOperation } from '../account-graph/operations';
import { runEndpointOperation } from '../endpoints/operations';
import { presentModule, presentTunnel, presentTunnelList } from '../tunnels/present';
import { apiError, notFound } from './api-errors';
import type { OperationRequest, Outcome } from './operation-request';
import { isAccountGraphRoute, isEndpointRoute } from './routes';
import { checkNoBody, checkNoQuery, parseListQuery, parseModuleInput } from './validate';

// The operations, once the caller is admitted: validate the input, act on the account,
// return the success outcome or throw an ApiError.

export function runOperation(request: OperationRequest): Outcome {
  const { match, account, base } = request;
  if (isEndpointRoute(match)) return runEndpointOperation({ ...request, match });
  if (isAccountGraphRoute(match)) return runAccountGraphOperation({ ...request, match });
  if (match.name === 'listTunnels') {
    const { limit, beforeId } = parseListQuery(request.query);
    checkNoBody(request.method, request.body);
    const page = account.listTunnels(limit, beforeId);
    return { status: 200, json: presentTunnelList(base, page.tunnels, limit, page.hasMore) };
  }
  checkNoQuery(request.query);
  if (match.name === 'getTunnel') {
    checkNoBody(request.method, request.body);
    const tunnel = account.getTunnel(match.tunnelId);
    if (tunnel === undefined) throw notFound();
    return { status: 200, json: presentTunnel(base, tunnel) };
  }
  const { edgeId, routeId } = match;
  if (request.edgesReadOnly && match.name !== 'getBackend') throw apiError('ERR_NGROK_7196');
  if (match.name === 'replaceBackend') {
    // Body errors come before lookups: the request is decoded before the handler runs.
    const input = parseModuleInput(request.contentType, request.body);
    if (!account.hasRoute(edgeId, routeId)) throw notFound();
    if (!account.hasBackend(input.backendId)) throw apiError('ERR_NGROK_242', { VALUE: input.backendId });
    account.setModule(edgeId, routeId, input);
    return { status: 200, json: presentModule(base, input) };
  }
  checkNoBody(request.method, request.body);
  if (!account.hasRoute(edgeId, routeId)) throw notFound();
  if (match.name === 'getBackend') {
    const module = account.getModule(edgeId, routeId);
    // Assumption (undocumented upstream): a route without a module answers 404.
    if (module === undefined) throw notFound();
    return { status: 200, json: presentModule(base, module) };
  }
  // DELETE is idempotent: a route without a module still answers 204.
  account.setModule(edgeId, routeId, undefined);
  return { status: 204 };
}
