// One account's demo data, put together from each room's seeded generators in a fixed order (the
// same seed gives the same data, ids included, so the ids printed in the README stay valid).
import { agentSessionsOf, reservationsFor } from '../account-graph/data';
import { certificatesFor, credentialsFor } from '../account-graph/issued';
import { demoBackendDetails, demoEdgeDetails, withGroupLabels } from '../edges/data';
import { demoCloudEndpoints } from '../endpoints/data';
import { DEFAULT_START, generateTunnels, makeBackends, makeId } from '../tunnels/data';
import type { AccountSeed, EdgeSeed, UpstreamTunnel } from '../types';
import { Rng } from './rng';

/**
 * One account's demo data: agent tunnels of every protocol in several regions, labeled tunnels
 * served by tunnel-group backends, backends of every kind, HTTPS edges whose routes have a
 * backend module, a disabled one, or none, and cloud endpoints (public, internal and TCP ones).
 */
export function demoData(options: { seed?: number; tunnels?: number } = {}): AccountSeed {
  const rng = new Rng(options.seed ?? 1);
  const start = DEFAULT_START;
  const tunnelGroup = makeBackends(rng, 'bkdtg', 3, start);
  const failover = makeBackends(rng, 'bkdfo', 2, start);
  const weighted = makeBackends(rng, 'bkdwd', 2, start);
  const httpResponse = makeBackends(rng, 'bkdhr', 2, start);
  const statics = makeBackends(rng, 'bkdsc', 1, start);

  const edgeTime = (hoursBefore: number) => new Date(start.getTime() - hoursBefore * 3_600_000);
  const edge = (hoursBefore: number, routes: EdgeSeed['routes']): EdgeSeed => ({
    id: makeId(rng, 'edghts', edgeTime(hoursBefore)),
    routes,
  });
  const route = (hoursBefore: number, backend?: { backendId: string; enabled: boolean }) => ({
    id: makeId(rng, 'edghtsrt', edgeTime(hoursBefore)),
    ...(backend === undefined ? {} : { backend }),
  });
  const first = (ids: string[]) => ids[0] ?? '';
  // One route per situation a client meets: enabled module, disabled module, no module.
  const edges: EdgeSeed[] = [
    edge(48, [
      route(47, { backendId: first(tunnelGroup), enabled: true }),
      route(46, { backendId: first(failover), enabled: false }),
      route(45),
    ]),
    edge(40, [route(39, { backendId: first(weighted), enabled: true }), route(38)]),
    edge(30, [route(29, { backendId: first(httpResponse), enabled: true })]),
  ];

  const tunnels = withGroupLabels(
    generateTunnels(rng, options.tunnels ?? 30, { kind: 'mix', start, tunnelGroups: tunnelGroup }),
    tunnelGroup,
  );
  // Drawn last, so the ids of everything above stay what they were before endpoints existed.
  const endpoints = demoCloudEndpoints(rng, start);
  return {
    tunnels,
    edges: demoEdgeDetails(edges, first(statics), options.seed ?? 1),
    backends: [...tunnelGroup, ...failover, ...weighted, ...httpResponse, ...statics],
    backendDetails: demoBackendDetails({ tunnelGroup, failover, weighted, httpResponse, statics }),
    endpoints,
    ...demoAccountGraph(
      tunnels,
      endpoints.map((e) => e.url),
      options.seed ?? 1,
      start,
    ),
  };
}

/**
 * The demo agents (one per tunnel session, the newest on Windows, the next with updates disabled in
 * its metadata) and reservations: every cloud endpoint's host and every other agent tunnel's.
 */
function demoAccountGraph(
  tunnels: readonly UpstreamTunnel[],
  cloudUrls: readonly string[],
  seed: number,
  start: Date,
): Pick<
  AccountSeed,
  'tunnelSessions' | 'reservedDomains' | 'reservedAddrs' | 'credentials' | 'tlsCertificates'
> {
  const sessions = agentSessionsOf(tunnels);
  const [newest, next] = sessions;
  if (newest) newest.os = 'windows';
  if (next) next.metadata = '{"update":"disabled"}';
  const agentUrls = tunnels.flatMap((t, i) =>
    t.public_url !== undefined && i % 2 === 0 ? [t.public_url] : [],
  );
  const reservations = reservationsFor([...cloudUrls, ...agentUrls], seed + 0xacc7, start);
  // The newest certificate expires in under 30 days from today (the rest later).
  const tlsCertificates = certificatesFor(reservations.reservedDomains, new Date());
  return {
    tunnelSessions: sessions,
    ...reservations,
    credentials: credentialsFor(sessions),
    tlsCertificates,
  };
}
