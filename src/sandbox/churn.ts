// Tunnels that come and go: a fresh tunnel (newer than every other, so it lists first) and a timer
// that brings one online or takes one offline at a steady pace, for demos of live tunnel events.
import { makeTunnels } from './data';
import { idTime } from './ids';
import { Rng } from './rng';
import type { AccountStore } from './store';
import type { UpstreamTunnel } from './types';

/** A new tunnel for `account`, started now or a second after its newest tunnel, whichever is later. */
export function freshTunnel(account: AccountStore, seed: number): UpstreamTunnel {
  const newest = account.newestTunnel();
  const after = newest === undefined ? 0 : (idTime(newest.id)?.getTime() ?? 0) + 1000;
  const start = new Date(Math.max(Date.now(), after));
  const [tunnel] = makeTunnels(1, { seed, kind: 'mix', start });
  if (tunnel === undefined) throw new Error('makeTunnels made no tunnel');
  return tunnel;
}

export interface ChurnOptions {
  /** Milliseconds between changes (default 3000). */
  readonly everyMs?: number;
  readonly seed?: number;
}

/**
 * Every `everyMs`, one tunnel of `account` comes online or goes offline (the count stays within a
 * few of where it started). Returns the stop function.
 */
export function startChurn(account: AccountStore, options: ChurnOptions = {}): () => void {
  const rng = new Rng(options.seed ?? 1);
  const base = account.tunnelCount;
  let seed = (options.seed ?? 1) * 1_000_003;
  const timer = setInterval(() => {
    const count = account.tunnelCount;
    const add = count <= Math.max(0, base - 3) || (count < base + 3 && rng.chance(0.5));
    if (add) {
      seed += 1;
      account.addTunnel(freshTunnel(account, seed));
      return;
    }
    // Among the newest few: the ones a demo's first page shows.
    const snapshot = account.listTunnels(Math.min(count, 10));
    const victim = snapshot.tunnels[rng.int(0, snapshot.tunnels.length - 1)];
    if (victim) account.removeTunnel(victim.id);
  }, options.everyMs ?? 3000);
  timer.unref();
  return () => clearInterval(timer);
}
