// What the endpointEvents tests share: every Endpoint field as frontends select it, a stand-in
// endpoint as the gateway shows it, seeded cloud endpoints, and the poller's figures per list.
import { type CloudEndpoint, newId, type UpstreamEndpoint } from '../../src/sandbox';
import { metric, type Stack, until } from './support';

export const POLICY = '{"on_http_request":[{"actions":[{"type":"deny","config":{"status_code":404}}]}]}';

/** Every scalar field of Endpoint, and its tunnel reference. */
export const ENDPOINT_FIELDS = `
  id url type typeName bindings proto hostport region createdAt updatedAt description metadata
  trafficPolicy poolingEnabled upstreamUrl tunnel { id uri }
`;

/** A stand-in endpoint (as GET /endpoints serves it) as the gateway shows it with ENDPOINT_FIELDS. */
export function graphqlEndpoint(e: UpstreamEndpoint) {
  return {
    id: e.id,
    url: e.url,
    type: e.type.toUpperCase(),
    typeName: e.type,
    bindings: e.bindings,
    proto: e.proto,
    hostport: e.hostport,
    region: e.region ?? null,
    createdAt: e.created_at,
    updatedAt: e.updated_at,
    description: e.description ?? null,
    metadata: e.metadata ?? null,
    trafficPolicy: e.traffic_policy ?? null,
    poolingEnabled: e.pooling_enabled,
    upstreamUrl: e.upstream_url ?? null,
    tunnel: e.tunnel ? { id: e.tunnel.id, uri: e.tunnel.uri } : null,
  };
}

/** The account's endpoint `id` as the stand-in lists it now. */
export function listed(stack: Stack, key: string, id: string): UpstreamEndpoint {
  const found = stack.sandbox.listEndpoints(key).find((e) => e.id === id);
  if (!found) throw new Error(`${id} is not listed`);
  return found;
}

/** `count` cloud endpoints created a second apart on 2025-06-01, oldest first. */
export function cloudSeeds(count: number, tag: string): CloudEndpoint[] {
  const start = Date.parse('2025-06-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const created = new Date(start + i * 1000);
    return {
      id: newId('ep', created),
      url: `https://${tag}-${i}.example.com`,
      created_at: created.toISOString(),
      updated_at: created.toISOString(),
      traffic_policy: POLICY,
      bindings: ['public'],
    };
  });
}

/** A list the poller walks (its metrics' `list` label). */
export type PolledList = 'tunnels' | 'endpoints' | 'tunnel_sessions';

/** Complete walks of a list so far. */
export const walks = (stack: Stack, list: PolledList) =>
  metric(stack.gateway, 'gateway_live_polls_total', { list, outcome: 'complete' });

/** Waits until `n` more walks of `list` than `from` are complete. */
export async function walked(stack: Stack, list: PolledList, from: number, n: number) {
  await until(async () => (await walks(stack, list)) >= from + n, `${n} more ${list} walks`);
}

/** Waits until every poller has ended its loop (the gauge drops as it releases the lease, last). */
export async function pollersStopped(stack: Stack): Promise<void> {
  await until(() => stack.gateway.live.pollers() === 0, 'the pollers to stop');
  await until(async () => (await metric(stack.gateway, 'gateway_live_pollers')) === 0, 'their loops to end');
}
