// Counts the upstream calls the poller actually sends. The transport reports each attempt through
// its events, inside the async context of the call that made it, so the poller's own calls are
// told apart from concurrent client requests (the same way request logs tally theirs).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { UpstreamEvents } from '../upstream/events';

interface Tally {
  calls: number;
}

const tallies = new AsyncLocalStorage<Tally>();

/** Transport hooks: attempts made inside countAttempts() are counted there. */
export const liveAttemptEvents: UpstreamEvents = {
  attempt() {
    const tally = tallies.getStore();
    if (tally) tally.calls += 1;
  },
};

/** Runs `fn` and reports how many upstream attempts it sent, whether it resolved or threw. */
export async function countAttempts<T>(
  fn: () => Promise<T>,
): Promise<{ calls: number; result: { ok: true; value: T } | { ok: false; error: unknown } }> {
  const tally: Tally = { calls: 0 };
  try {
    const value = await tallies.run(tally, fn);
    return { calls: tally.calls, result: { ok: true, value } };
  } catch (error) {
    return { calls: tally.calls, result: { ok: false, error } };
  }
}
