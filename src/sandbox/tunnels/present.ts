// Tunnel bodies as the real API writes them: fixed field order, optional fields omitted (never
// null), Ref uris derived from ids under the public base. Fields a seed adds beyond the known ones
// are passed through, so tests can simulate the API growing new fields.
import { presentList } from '../state/paging';
import { ref } from '../state/resources';
import type { Ref, UpstreamTunnel } from '../types';

const TUNNEL_FIELDS = new Set([
  'id',
  'public_url',
  'started_at',
  'metadata',
  'proto',
  'region',
  'tunnel_session',
  'endpoint',
  'labels',
  'backends',
  'forwards_to',
]);

function presentRefs(base: string, refs: Ref[] | Ref): Ref[] | Ref {
  // The spec types `backends` as one Ref, the real API sends an array; keep whichever was seeded.
  return Array.isArray(refs) ? refs.map((item) => ref(base, item)) : ref(base, refs);
}

export function presentTunnel(base: string, tunnel: UpstreamTunnel): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: tunnel.id,
    public_url: tunnel.public_url,
    started_at: tunnel.started_at,
    metadata: tunnel.metadata,
    proto: tunnel.proto,
    region: tunnel.region,
    tunnel_session: ref(base, tunnel.tunnel_session),
    endpoint: tunnel.endpoint && ref(base, tunnel.endpoint),
    labels: tunnel.labels,
    backends: tunnel.backends && presentRefs(base, tunnel.backends),
    forwards_to: tunnel.forwards_to,
  };
  for (const [name, value] of Object.entries(tunnel)) if (!TUNNEL_FIELDS.has(name)) out[name] = value;
  for (const [name, value] of Object.entries(out))
    if (value === undefined || value === null) delete out[name];
  return out;
}

export function presentTunnelList(
  base: string,
  tunnels: UpstreamTunnel[],
  limit: number,
  hasMore: boolean,
): Record<string, unknown> {
  const items = tunnels.map((tunnel) => presentTunnel(base, tunnel));
  return presentList(base, 'tunnels', items, { limit, hasMore, lastId: tunnels.at(-1)?.id });
}
