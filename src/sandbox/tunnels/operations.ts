// The tunnel operations: GET /tunnels (newest first, paged by before_id) and GET /tunnels/{id}.
import { notFound } from '../api/errors';
import type { OperationRequest, Outcome } from '../api/operation-request';
import type { TunnelRoute } from '../api/routes';
import { checkNoBody, checkNoQuery, parseListQuery } from '../api/validate';
import { presentTunnel, presentTunnelList } from './present';

type TunnelRequest = Omit<OperationRequest, 'match'> & { match: TunnelRoute };

export function runTunnelOperation(request: TunnelRequest): Outcome {
  const { match, account, base } = request;
  if (match.name === 'listTunnels') {
    const { limit, beforeId } = parseListQuery(request.query);
    checkNoBody(request.method, request.body);
    const page = account.listTunnels(limit, beforeId);
    return { status: 200, json: presentTunnelList(base, page.tunnels, limit, page.hasMore) };
  }
  checkNoQuery(request.query);
  checkNoBody(request.method, request.body);
  const tunnel = account.getTunnel(match.tunnelId);
  if (tunnel === undefined) throw notFound();
  return { status: 200, json: presentTunnel(base, tunnel) };
}
