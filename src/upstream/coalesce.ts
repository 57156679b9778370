// In-flight coalescing: identical GETs of one credential share one upstream call. A write detaches
// that credential's reads in flight, so a read started once a write has begun never joins an answer
// that may predate it.
import { UpstreamError } from '../errors';
import type { UpstreamResponse } from './call';
import type { UpstreamEvents } from './events';
import { MESSAGES } from './messages';
import type { Stage } from './stage';

export function coalesceStage(stats: { coalesced: number }, events: UpstreamEvents | undefined): Stage {
  const inFlight = new Map<string, Promise<UpstreamResponse>>();
  const forgetReads = (credential: string) => {
    const prefix = `${credential} `;
    for (const key of inFlight.keys()) if (key.startsWith(prefix)) inFlight.delete(key);
  };
  return (next) => (call) => {
    if (call.request.method !== 'GET') {
      forgetReads(call.credential);
      return next(call).finally(() => forgetReads(call.credential));
    }
    const key = `${call.credential} ${call.path}`;
    const pending = inFlight.get(key);
    if (pending) {
      stats.coalesced += 1;
      if (call.tally) call.tally.coalesced += 1;
      events?.coalesced?.({ route: call.request.route });
      // The call keeps the deadline of the operation that started it; this one may end sooner.
      return untilDeadline(pending, call.deadline);
    }
    const promise: Promise<UpstreamResponse> = next(call).finally(() => {
      if (inFlight.get(key) === promise) inFlight.delete(key);
    });
    inFlight.set(key, promise);
    return promise;
  };
}

/** Resolves or rejects as `promise` does, or rejects with UPSTREAM_TIMEOUT at `deadline`. */
function untilDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  if (!Number.isFinite(deadline)) return promise;
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UpstreamError('UPSTREAM_TIMEOUT', MESSAGES.UPSTREAM_TIMEOUT)),
      Math.max(0, deadline - performance.now()),
    );
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}
