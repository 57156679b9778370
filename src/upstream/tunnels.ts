// The tunnels resource: GET /tunnels (newest first, limit/before_id paging) and GET /tunnels/{id}.
import { UpstreamError } from '../errors';
import type { UpstreamRequest } from './call';
import type { UpstreamTransport } from './transport';
import { parseTunnel, parseTunnelPage, type Tunnel, type TunnelPage } from './tunnel-json';

/** The upstream's largest page (limit 1..100). */
export const MAX_PAGE_SIZE = 100;

export interface TunnelPageRequest {
  /** 1..MAX_PAGE_SIZE, the upstream's own bounds. */
  readonly limit: number;
  /** Only tunnels created before this one (the upstream's cursor). */
  readonly beforeId?: string;
  /** 'poll': the live poller's walk (see UpstreamRequest.origin). */
  readonly origin?: 'poll';
}

export const listTunnelsRequest = (page: TunnelPageRequest): UpstreamRequest => ({
  route: 'listTunnels',
  method: 'GET',
  segments: ['tunnels'],
  query: { limit: page.limit, before_id: page.beforeId },
  ...(page.origin ? { origin: page.origin } : {}),
});

export const getTunnelRequest = (id: string): UpstreamRequest => ({
  route: 'getTunnel',
  method: 'GET',
  segments: ['tunnels', id],
});

export async function listTunnels(
  transport: UpstreamTransport,
  apiKey: string,
  page: TunnelPageRequest,
): Promise<TunnelPage> {
  const response = await transport.send(apiKey, listTunnelsRequest(page));
  return parseTunnelPage(response.json);
}

/** One tunnel, or null when no online tunnel has this id. */
export async function getTunnel(
  transport: UpstreamTransport,
  apiKey: string,
  id: string,
): Promise<Tunnel | null> {
  try {
    const response = await transport.send(apiKey, getTunnelRequest(id));
    return parseTunnel(response.json);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return null;
    throw error;
  }
}
