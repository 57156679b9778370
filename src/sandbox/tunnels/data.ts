// Seeded tunnels (agent and labeled ones) and the backend ids they point to, for demo data and test
// fixtures: the same seed gives the same data, ids included, because time and randomness both
// come from the seed (never from the clock).
import { ksuidSuffix } from '../state/ids';
import { type BackendPrefix, resourceUri } from '../state/resources';
import { Rng } from '../state/rng';
import type { Ref, UpstreamTunnel } from '../types';

const PROTOS = ['https', 'http', 'tcp', 'tls'] as const;
type Proto = (typeof PROTOS)[number];
// Weighted towards us/eu like real traffic, but every region appears in larger sets.
const REGIONS = ['us', 'us', 'us', 'eu', 'eu', 'ap', 'au', 'sa', 'jp', 'in'] as const;
const METADATA = [
  '{"team":"payments","env":"prod"}',
  '{"team":"search","env":"staging"}',
  'laptop of ada',
  'ci-runner-17',
  '{"owner":"grace","purpose":"webhook testing"}',
];
const LABEL_SETS: readonly Record<string, string>[] = [
  { app: 'checkout', env: 'prod' },
  { app: 'checkout', env: 'staging' },
  { app: 'search', dc: 'fra-1' },
  { service: 'billing-api' },
];
const FORWARDS_TO: Record<Proto, string[]> = {
  https: ['http://localhost:80', 'http://localhost:3000', 'https://localhost:8443'],
  http: ['http://localhost:8080', 'http://127.0.0.1:5173'],
  tcp: ['localhost:22', 'localhost:5432', '10.0.0.12:6379'],
  tls: ['localhost:443', 'localhost:8443'],
};

/** Where generated data starts when no date is given: fixed so that ids are stable across runs. */
export const DEFAULT_START = new Date('2025-09-01T08:00:00Z');
const API_BASE = 'https://api.ngrok.com';

export function makeId(rng: Rng, prefix: string, date: Date): string {
  return `${prefix}_${ksuidSuffix(date, rng.bytes(16))}`;
}

function makeRef(id: string): Ref {
  return { id, uri: resourceUri(API_BASE, id) ?? `${API_BASE}/${id}` };
}

/** RFC 3339 at second precision, the format the API uses for started_at. */
function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function publicUrl(rng: Rng, proto: Proto, region: string): string {
  if (proto === 'tcp') {
    const host = region === 'us' ? 'tcp.ngrok.io' : `tcp.${region}.ngrok.io`;
    return `tcp://${rng.int(0, 8)}.${host}:${rng.int(10000, 29999)}`;
  }
  const domain = rng.pick(['ngrok.app', 'ngrok-free.app', 'ngrok.dev']);
  return `${proto}://${rng.hex(12)}.${domain}`;
}

interface TunnelPlan {
  kind: 'agent' | 'labeled' | 'mix';
  start: Date;
  tunnelGroups: readonly string[];
}

export function generateTunnels(rng: Rng, count: number, plan: TunnelPlan): UpstreamTunnel[] {
  const created: UpstreamTunnel[] = [];
  let time = plan.start.getTime();
  let session: Ref | undefined;
  let agentCount = 0;
  for (let i = 0; i < count; i++) {
    // Distinct seconds keep ids strictly time-ordered (ids made within one second sort randomly).
    if (i > 0) time += rng.int(1, 45) * 1000;
    const startedAt = new Date(time);
    if (session === undefined || !rng.chance(0.35)) {
      session = makeRef(makeId(rng, 'ts', new Date(time - rng.int(0, 600) * 1000)));
    }
    const region = rng.pick(REGIONS);
    const labeled = plan.kind === 'labeled' || (plan.kind === 'mix' && rng.chance(0.25));
    const metadata = rng.chance(0.4) ? rng.pick(METADATA) : undefined;
    const suffix = ksuidSuffix(startedAt, rng.bytes(16));
    const common = {
      id: `tn_${suffix}`,
      started_at: rfc3339(startedAt),
      ...(metadata === undefined ? {} : { metadata }),
      region,
      tunnel_session: session,
    };
    if (labeled) {
      const backend = rng.pick(plan.tunnelGroups);
      created.push({
        ...common,
        labels: { ...rng.pick(LABEL_SETS) },
        backends: [makeRef(backend)],
        forwards_to: rng.pick(['http://localhost:8080', 'http://localhost:3000', 'localhost:9000']),
      });
    } else {
      // Cycling keeps every protocol present as soon as there are four agent tunnels.
      const proto = PROTOS[agentCount++ % PROTOS.length] ?? 'https';
      created.push({
        id: common.id,
        public_url: publicUrl(rng, proto, region),
        started_at: common.started_at,
        ...(metadata === undefined ? {} : { metadata }),
        proto,
        region,
        tunnel_session: session,
        // An agent tunnel and its ephemeral endpoint share the KSUID suffix.
        endpoint: makeRef(`ep_${suffix}`),
        forwards_to: rng.pick(FORWARDS_TO[proto]),
      });
    }
  }
  return created.reverse();
}

export function makeBackends(rng: Rng, prefix: BackendPrefix, count: number, before: Date): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      makeId(rng, prefix, new Date(before.getTime() - (count - i) * 3_600_000 - rng.int(0, 3599) * 1000)),
    );
  }
  return ids;
}

/**
 * `count` tunnels with distinct ids whose order is their creation order, returned newest first
 * (the order GET /tunnels lists them). `start` is the oldest tunnel's started_at.
 */
export function makeTunnels(
  count: number,
  options: { seed?: number; kind?: 'agent' | 'labeled' | 'mix'; start?: Date } = {},
): UpstreamTunnel[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
  const rng = new Rng(options.seed ?? 1);
  const start = options.start ?? DEFAULT_START;
  const tunnelGroups = makeBackends(rng, 'bkdtg', 3, start);
  return generateTunnels(rng, count, { kind: options.kind ?? 'mix', start, tunnelGroups });
}
