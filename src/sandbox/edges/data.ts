// The demo account's HTTPS edges and backends as they join: each edge's hostports and routes' paths,
// the backends' fields (a failover over a tunnel group and an HTTP response, a weighted one over two
// tunnel groups, …), and labeled tunnels carrying their tunnel group's labels. Drawn from a generator
// of their own, so no id of the rest of the demo data moves.
import { idTime } from '../state/ids';
import { Rng } from '../state/rng';
import { makeId } from '../tunnels/data';
import type { UpstreamTunnel } from '../types';
import type { EdgeSeed, RouteSeed, UpstreamBackend } from './types';

/** The labels of the demo's tunnel groups, in the order of their ids. */
const GROUP_LABELS: readonly Record<string, string>[] = [
  { app: 'checkout', env: 'prod' },
  { app: 'checkout', env: 'staging' },
  { app: 'search', dc: 'fra-1' },
];
const HOSTS = ['shop.example.com', 'api.example.com', 'status.example.com'] as const;
const PATHS: readonly string[] = ['/', '/api', '/admin'];

interface DemoBackends {
  tunnelGroup: readonly string[];
  failover: readonly string[];
  weighted: readonly string[];
  httpResponse: readonly string[];
  statics: readonly string[];
}

/** The backends' fields: every kind, the composite ones over the others. */
export function demoBackendDetails(b: DemoBackends): UpstreamBackend[] {
  const [tg0 = '', tg1 = '', tg2 = ''] = b.tunnelGroup;
  const [hr0 = '', hr1 = ''] = b.httpResponse;
  const [sc0 = ''] = b.statics;
  return [
    ...b.tunnelGroup.map((id, i) => ({
      id,
      description: `tunnel group ${i + 1}`,
      labels: { ...GROUP_LABELS[i] },
    })),
    { id: b.failover[0] ?? '', description: 'checkout, else maintenance', backends: [tg0, hr0] },
    { id: b.failover[1] ?? '', backends: [tg2, sc0] },
    { id: b.weighted[0] ?? '', description: 'canary', backends: { [tg0]: 80, [tg1]: 20 } },
    { id: b.weighted[1] ?? '', backends: { [tg1]: 50, [tg2]: 50 } },
    {
      id: hr0,
      description: 'maintenance',
      body: 'maintenance',
      headers: { 'content-type': 'text/plain' },
      status_code: 503,
    },
    {
      id: hr1,
      body: 'not here',
      headers: { 'content-type': 'text/plain', 'cache-control': 'no-store' },
      status_code: 404,
    },
    { id: sc0, description: 'legacy VM', address: '10.0.0.5:8080', tls: { enabled: false } },
  ];
}

/**
 * The edges with their hostports and routes' paths, the last edge given one more route, to the
 * static backend (its id from `seed`'s own generator), so routes reach backends of all five kinds.
 */
export function demoEdgeDetails(edges: readonly EdgeSeed[], staticId: string, seed: number): EdgeSeed[] {
  const rng = new Rng(seed + 0xed6e);
  return edges.map((edge, i) => {
    const routes: RouteSeed[] = edge.routes.map((route, j) => ({
      ...route,
      match_type: 'path_prefix',
      match: PATHS[j] ?? '/',
    }));
    if (i === edges.length - 1) {
      const id = makeId(rng, 'edghtsrt', new Date((idTime(edge.id)?.getTime() ?? 0) + 2 * 3_600_000));
      routes.push({
        id,
        match_type: 'exact_path',
        match: '/legacy',
        backend: { backendId: staticId, enabled: true },
      });
    }
    return { ...edge, hostports: [`${HOSTS[i % HOSTS.length]}:443`], description: `edge ${i + 1}`, routes };
  });
}

/** Labeled tunnels carry their tunnel group's labels (and may carry more), as a tunnel group matches them. */
export function withGroupLabels(tunnels: UpstreamTunnel[], tunnelGroup: readonly string[]): UpstreamTunnel[] {
  return tunnels.map((tunnel) => {
    const group = tunnel.backends?.[0]?.id;
    const index = group === undefined ? -1 : tunnelGroup.indexOf(group);
    if (tunnel.labels === undefined || index < 0) return tunnel;
    return { ...tunnel, labels: { ...tunnel.labels, ...GROUP_LABELS[index] } };
  });
}
