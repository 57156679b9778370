// In-flight joining: work under way for a credential and path is shared by identical work started
// meanwhile. The coalesce stage joins identical GETs of one credential into one upstream call; a write
// detaches that credential's reads in flight, so a read started once a write has begun never joins
// an answer that may predate it. The read cache (read-cache.ts) joins its reads the same way.
import { UpstreamError } from '../../errors';
import type { UpstreamEvents } from '../call/hooks';
import { MESSAGES } from '../call/messages';
import type { UpstreamResponse } from '../call/request';
import type { Call, Stage } from '../call/stage';

/** Work under way, keyed by credential digest and path; each entry goes when its promise settles. */
export class InFlight<E extends { readonly promise: Promise<unknown> }> {
  private readonly entries = new Map<string, E>();

  /** Credentials with work under way (bounded by the work in flight). */
  get credentials(): number {
    return new Set([...this.entries.keys()].map((key) => key.slice(0, key.indexOf(' ')))).size;
  }

  get(digest: string, path: string): E | undefined {
    return this.entries.get(keyOf(digest, path));
  }

  /** Holds `entry` for identical work until its promise settles, unless detached or replaced first. */
  hold(digest: string, path: string, entry: E): void {
    const key = keyOf(digest, path);
    this.entries.set(key, entry);
    const done = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    entry.promise.then(done, done);
  }

  /** Lets the credential's work under way finish unjoined: identical work from now on starts anew. */
  detach(digest: string): void {
    const prefix = keyOf(digest, '');
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

// Credential digests have no spaces (base64url), so the first space ends the credential part.
const keyOf = (digest: string, path: string): string => `${digest} ${path}`;

export interface CoalesceOptions {
  readonly events?: UpstreamEvents;
}

/** The stage, over the calls in flight it keeps; `stats` counts the transport's joined calls. */
export function coalesceStage({ events }: CoalesceOptions, stats: { coalesced: number }): Stage {
  /** Each call under way with the deadline of the operation that started it, and its answer's shape. */
  const inFlight = new InFlight<{
    readonly promise: Promise<UpstreamResponse>;
    readonly deadline: number;
    readonly shape: Call['shape'];
  }>();
  return (next) => (call) => {
    if (call.request.method !== 'GET') {
      inFlight.detach(call.digest);
      return next(call).finally(() => inFlight.detach(call.digest));
    }
    // Only a call read into the same shape can be shared: the answer keeps no JSON for another.
    const pending = inFlight.get(call.digest, call.path);
    if (pending && pending.shape === call.shape) {
      stats.coalesced += 1;
      call.ledger?.joined();
      events?.coalesced?.({ route: call.request.route });
      // The call keeps the deadline of the operation that started it; this one may end sooner. When
      // it ends no later than the started call's, that call's own deadline ends both: no timer.
      return pending.deadline <= call.deadline
        ? pending.promise
        : untilDeadline(pending.promise, call.deadline);
    }
    const promise = next(call);
    inFlight.hold(call.digest, call.path, { promise, deadline: call.deadline, shape: call.shape });
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
