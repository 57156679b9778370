// Endpoint bodies as the real API writes them, in its field order: agent endpoints derived from
// their tunnel, cloud endpoints from what the account stores, each with the reserved domain or TCP
// address its host (or host:port) is on. Fields that do not apply are left out (never null or
// empty); unknown fields of a seeded cloud endpoint pass through.
import type { AccountGraph } from '../account-graph/store';
import { ref, resourceUri } from '../state/resources';
import type { EndpointRecord } from '../state/store';
import type { CloudEndpoint, UpstreamEndpoint, UpstreamTunnel } from '../types';
import { describeUrl } from './url';

/** Which reservation a host or host:port is on (the account's AccountGraph). */
type Reserved = Pick<AccountGraph, 'domainFor' | 'addrFor'>;

const CLOUD_FIELDS = new Set([
  'id',
  'url',
  'created_at',
  'updated_at',
  'traffic_policy',
  'bindings',
  'description',
  'metadata',
  'pooling_enabled',
  'principal',
]);

function compact(out: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(out)) {
    if (value === undefined || value === null || value === '') delete out[name];
  }
  return out;
}

function urlFields(url: string): Record<string, unknown> {
  const parts = describeUrl(url);
  return {
    public_url: url,
    proto: parts?.scheme,
    scheme: parts?.scheme,
    hostport: parts?.hostport,
    host: parts?.host,
    port: parts?.port,
  };
}

/** `domain` for a reserved host (tcp_addr for a reserved tcp host:port), as Refs. */
function reservationRefs(base: string, url: string, reserved: Reserved | undefined): Record<string, unknown> {
  const parts = describeUrl(url);
  if (parts === undefined || reserved === undefined) return {};
  const id = parts.scheme === 'tcp' ? reserved.addrFor(parts.hostport) : reserved.domainFor(parts.host);
  if (id === undefined) return {};
  return { [parts.scheme === 'tcp' ? 'tcp_addr' : 'domain']: ref(base, { id, uri: '' }) };
}

function presentAgent(
  base: string,
  id: string,
  tunnel: UpstreamTunnel,
  reserved: Reserved | undefined,
): Record<string, unknown> {
  const url = tunnel.public_url ?? '';
  return compact({
    id,
    region: tunnel.region,
    created_at: tunnel.started_at,
    // An agent endpoint is never updated: it lives and dies with its tunnel.
    updated_at: tunnel.started_at,
    ...urlFields(url),
    proto: tunnel.proto,
    type: 'agent',
    metadata: tunnel.metadata,
    ...reservationRefs(base, url, reserved),
    tunnel: ref(base, { id: tunnel.id, uri: '' }),
    upstream_url: tunnel.forwards_to,
    url,
    bindings: [describeUrl(url)?.internal ? 'internal' : 'public'],
    tunnel_session: ref(base, tunnel.tunnel_session),
    uri: resourceUri(base, id),
    pooling_enabled: false,
  });
}

function presentCloud(
  base: string,
  endpoint: CloudEndpoint,
  reserved: Reserved | undefined,
): Record<string, unknown> {
  const out = compact({
    id: endpoint.id,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
    ...urlFields(endpoint.url),
    type: 'cloud',
    metadata: endpoint.metadata,
    description: endpoint.description,
    ...reservationRefs(base, endpoint.url, reserved),
    url: endpoint.url,
    principal: endpoint.principal && ref(base, endpoint.principal),
    traffic_policy: endpoint.traffic_policy,
    bindings: [...endpoint.bindings],
    uri: resourceUri(base, endpoint.id),
    pooling_enabled: endpoint.pooling_enabled ?? false,
  });
  for (const [name, value] of Object.entries(endpoint)) {
    if (!CLOUD_FIELDS.has(name) && value !== undefined && value !== null) out[name] = value;
  }
  return out;
}

export function presentEndpoint(base: string, record: EndpointRecord, reserved?: Reserved): UpstreamEndpoint {
  const out =
    record.type === 'agent'
      ? presentAgent(base, record.id, record.tunnel, reserved)
      : presentCloud(base, record.endpoint, reserved);
  // The shape is UpstreamEndpoint by construction; only seeded oddities (an unparsable URL) lack fields.
  return out as unknown as UpstreamEndpoint;
}
