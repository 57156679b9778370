// Seeded agents and reservations, so the account graph joins: the agent (tunnel session) behind each
// tunnel, derived from the session's id alone (the same tunnels always give the same agents, and no
// other generator's sequence moves), and reservations for endpoints' hosts.

import { describeUrl } from '../endpoints/url';
import { idTime, ksuidSuffix } from '../state/ids';
import { Rng } from '../state/rng';
import type { UpstreamTunnel } from '../types';
import type { UpstreamReservedAddr, UpstreamReservedDomain, UpstreamTunnelSession } from './types';

const OSES = ['linux', 'linux', 'linux', 'darwin', 'windows'] as const;
const VERSIONS = ['3.19.1', '3.22.1', '3.24.0'] as const;
const METADATA = ['{"host":"build-01"}', 'laptop of ada', '{"team":"payments"}'] as const;
const API_BASE = 'https://api.ngrok.com';

/** FNV-1a: a stable number from a string, to seed what is derived from an id. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The agent behind session `id`, derived from the id; `region` is where its tunnels run. */
export function agentSessionOf(id: string, region = 'us'): UpstreamTunnelSession {
  const rng = new Rng(hash(id));
  const started = idTime(id) ?? new Date(0);
  const credential = `cr_${ksuidSuffix(new Date(started.getTime() - 86_400_000), rng.bytes(16))}`;
  const metadata = rng.chance(0.3) ? rng.pick(METADATA) : undefined;
  return {
    id,
    agent_version: rng.pick(VERSIONS),
    credential: { id: credential, uri: `${API_BASE}/credentials/${credential}` },
    ip: `203.0.113.${rng.int(1, 254)}`,
    ...(metadata === undefined ? {} : { metadata }),
    os: rng.pick(OSES),
    region,
    started_at: rfc3339(started),
    transport: rng.chance(0.9) ? 'ngrok/v2' : 'ssh',
  };
}

/** One agent per distinct tunnel_session of `tunnels`, newest first. */
export function agentSessionsOf(tunnels: readonly UpstreamTunnel[]): UpstreamTunnelSession[] {
  const regions = new Map<string, string>();
  for (const tunnel of tunnels) {
    if (!regions.has(tunnel.tunnel_session.id)) regions.set(tunnel.tunnel_session.id, tunnel.region);
  }
  return [...regions]
    .map(([id, region]) => agentSessionOf(id, region))
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

interface Reservations {
  reservedDomains: UpstreamReservedDomain[];
  reservedAddrs: UpstreamReservedAddr[];
}

/**
 * A reserved TCP address for each tcp URL's host:port and a reserved domain for each other URL's
 * host (internal ones aside), created a day or more before `before`, newest first.
 */
export function reservationsFor(urls: readonly string[], seed: number, before: Date): Reservations {
  const rng = new Rng(seed);
  const domains = new Map<string, UpstreamReservedDomain>();
  const addrs = new Map<string, UpstreamReservedAddr>();
  let time = before.getTime() - 86_400_000 * 3;
  for (const url of urls) {
    const parts = describeUrl(url);
    if (parts === undefined || parts.internal) continue;
    time += rng.int(60, 3600) * 1000;
    const created = new Date(time);
    const common = { created_at: rfc3339(created), ...(rng.chance(0.3) ? { description: 'reserved' } : {}) };
    if (parts.scheme === 'tcp') {
      if (addrs.has(parts.hostport)) continue;
      const id = `ra_${ksuidSuffix(created, rng.bytes(16))}`;
      addrs.set(parts.hostport, { id, ...common, addr: parts.hostport, region: 'us' });
      continue;
    }
    if (domains.has(parts.host)) continue;
    const id = `rd_${ksuidSuffix(created, rng.bytes(16))}`;
    const custom = !/\.ngrok(-free)?\.(app|dev|io)$/.test(parts.host);
    const cert = `cert_${ksuidSuffix(created, rng.bytes(16))}`;
    domains.set(parts.host, {
      id,
      ...common,
      domain: parts.host,
      ...(custom
        ? {
            cname_target: `${rng.hex(5)}.${rng.hex(6)}.ngrok-cname.com`,
            certificate: { id: cert, uri: `${API_BASE}/tls_certificates/${cert}` },
          }
        : { region: 'us' }),
    });
  }
  const newestFirst = <T extends { id: string }>(items: Iterable<T>) =>
    [...items].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return { reservedDomains: newestFirst(domains.values()), reservedAddrs: newestFirst(addrs.values()) };
}
