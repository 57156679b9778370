// Tunnels, agents and cloud endpoints that come and go: a fresh tunnel (newer than every other, so it
// lists first, on a new agent) and a timer that, at a steady pace, brings a tunnel online or takes one
// offline (its agent endpoint with it, and its agent when it was the agent's last tunnel) and
// creates, touches or deletes a cloud endpoint.

import { ApiError } from '../api/errors';
import { freshEndpointInput } from '../endpoints/data';
import { createCloudEndpoint, touchCloudEndpoint } from '../endpoints/writes';
import { makeTunnels } from '../tunnels/data';
import type { UpstreamTunnel } from '../types';
import { idTime } from './ids';
import { Rng } from './rng';
import type { AccountStore } from './store';

/** A new tunnel for `account`, started now or a second after its newest tunnel, whichever is later. */
export function freshTunnel(account: AccountStore, seed: number): UpstreamTunnel {
  const newest = account.newestTunnel();
  const after = newest === undefined ? 0 : (idTime(newest.id)?.getTime() ?? 0) + 1000;
  const start = new Date(Math.max(Date.now(), after));
  const [tunnel] = makeTunnels(1, { seed, kind: 'mix', start });
  if (tunnel === undefined) throw new Error('makeTunnels made no tunnel');
  return tunnel;
}

interface ChurnOptions {
  /** Milliseconds between changes (default 3000). */
  readonly everyMs?: number;
  readonly seed?: number;
}

function churnTunnels(account: AccountStore, rng: Rng, base: number, nextSeed: () => number): void {
  const count = account.tunnelCount;
  const add = count <= Math.max(0, base - 3) || (count < base + 3 && rng.chance(0.5));
  if (add) {
    account.addTunnel(freshTunnel(account, nextSeed()));
    return;
  }
  // Among the newest few: the ones a demo's first page shows.
  const snapshot = account.listTunnels(Math.min(count, 10));
  const victim = snapshot.tunnels[rng.int(0, snapshot.tunnels.length - 1)];
  if (!victim) return;
  account.removeTunnel(victim.id);
  // An agent whose last tunnel went exits with it: agents come and go with the tunnels.
  const session = victim.tunnel_session.id;
  if (account.tunnelsOf(session).length === 0) account.graph.removeSession(session);
}

function churnEndpoints(account: AccountStore, rng: Rng, base: number): void {
  const count = account.cloudEndpointCount;
  const roll = rng.next();
  if (count <= Math.max(0, base - 2) || (count < base + 2 && roll < 0.35)) {
    createCloudEndpoint(account, { type: 'cloud', ...freshEndpointInput(rng) });
    return;
  }
  const newest = account.newestCloudEndpoints(Math.min(count, 10));
  const target = newest[rng.int(0, newest.length - 1)];
  if (target === undefined) return;
  if (roll < 0.7) touchCloudEndpoint(account, target.id);
  else account.removeCloudEndpoint(target.id);
}

/**
 * Every `everyMs`, one tunnel of `account` comes online or goes offline, and one cloud endpoint is
 * created, touched or deleted (both counts stay within a few of where they started). Returns the
 * stop function.
 */
export function startChurn(account: AccountStore, options: ChurnOptions = {}): () => void {
  // Separate generators: the tunnel sequence for a seed is what it was before endpoints churned.
  const rng = new Rng(options.seed ?? 1);
  const endpointRng = new Rng((options.seed ?? 1) + 0x5eed);
  const tunnelBase = account.tunnelCount;
  const endpointBase = account.cloudEndpointCount;
  let seed = (options.seed ?? 1) * 1_000_003;
  const timer = setInterval(() => {
    churnTunnels(account, rng, tunnelBase, () => {
      seed += 1;
      return seed;
    });
    try {
      churnEndpoints(account, endpointRng, endpointBase);
    } catch (error) {
      // A generated URL already taken (vanishingly rare): this tick changes no endpoint.
      if (!(error instanceof ApiError)) throw error;
    }
  }, options.everyMs ?? 3000);
  timer.unref();
  return () => clearInterval(timer);
}
