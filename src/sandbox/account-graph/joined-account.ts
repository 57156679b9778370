// A fixture in which the account graph joins at scale: every agent tunnel on an agent of its own and
// on a reserved domain or TCP address (the join tests and the benchmark seed it).

import { idTime } from '../state/ids';
import { makeTunnels } from '../tunnels/data';
import type { AccountSeed, UpstreamTunnel } from '../types';
import { agentSessionsOf, reservationsFor } from './data';

const API_BASE = 'https://api.ngrok.com';

/**
 * `count` agent tunnels, each on an agent of its own and on a reserved domain or TCP address: an
 * account whose `count` agent endpoints join to `count` distinct agents and as many reservations.
 */
export function joinedAccount(count: number, options: { seed?: number; start?: Date } = {}): AccountSeed {
  const tunnels = makeTunnels(count, { seed: options.seed ?? 1, kind: 'agent', start: options.start }).map(
    (tunnel): UpstreamTunnel => {
      const id = `ts_${tunnel.id.slice(3)}`;
      return { ...tunnel, tunnel_session: { id, uri: `${API_BASE}/tunnel_sessions/${id}` } };
    },
  );
  const oldest = idTime(tunnels.at(-1)?.id ?? '') ?? new Date();
  return {
    tunnels,
    tunnelSessions: agentSessionsOf(tunnels),
    ...reservationsFor(
      tunnels.map((t) => t.public_url ?? ''),
      options.seed ?? 1,
      oldest,
    ),
  };
}
