// The tunnels resource: GET /tunnels (newest first, limit/before_id paging) and GET /tunnels/{id}.

import type { UpstreamRequest } from '../call/request';
import type { UpstreamKey } from '../call/upstream-key';
import type { UpstreamTransport } from '../transport';
import { reading, readOrNull } from './calls';
import { parseTunnel, parseTunnelPage, type Tunnel } from './json/tunnel';

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

/** The cheapest read there is, which the readiness check sends (UpstreamTransport.checkReadiness). */
export const READINESS_REQUEST: UpstreamRequest = listTunnelsRequest({ limit: 1 });

export const listTunnels = reading(listTunnelsRequest, parseTunnelPage);

/** One tunnel, or null when no online tunnel has this id. */
export const getTunnel = (
  transport: UpstreamTransport,
  key: UpstreamKey,
  id: string,
): Promise<Tunnel | null> => readOrNull(transport, key, getTunnelRequest(id), parseTunnel);
