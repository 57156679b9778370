// The backend module of an HTTPS edge route: PUT, GET and DELETE of
// /edges/https/{edge}/routes/{route}/backend (writes refused while edges are read-only).
import { apiError, notFound } from '../api/errors';
import type { OperationRequest, Outcome } from '../api/operation-request';
import type { BackendModuleRoute } from '../api/routes';
import { checkNoBody, checkNoQuery } from '../api/validate';
import { parseModuleInput } from './input';
import { presentModule } from './present';

type BackendModuleRequest = Omit<OperationRequest, 'match'> & { match: BackendModuleRoute };

export function runBackendModuleOperation(request: BackendModuleRequest): Outcome {
  const { match, account, base } = request;
  checkNoQuery(request.query);
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
