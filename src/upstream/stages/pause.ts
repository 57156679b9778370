// The per-credential pause after a 429 with Retry-After: until it is over no call is sent for that
// credential, so a burst of clients does not spend the next window's quota on requests that could
// only be refused again. Calls wait it out, or fail at once with RATE_LIMITED when it outlasts
// their deadline.
import { GatewayError, UpstreamError } from '../../errors';
import { MAX_PAUSE_MS, MemoryPauseStore, type PauseStore, retryAfterFromMs } from '../../shared-state';
import { MIN_ATTEMPT_MS } from '../call/call-scope';
import type { UpstreamEvents } from '../call/hooks';
import { MESSAGES } from '../call/messages';
import { AttemptFailure, type Call, callNext, type Stage, sleep } from '../call/stage';

export interface PauseOptions {
  /** Where pauses after a 429 live (Redis: shared by replicas); none: in this transport. */
  readonly pauses?: PauseStore;
  readonly events?: UpstreamEvents;
}

class CredentialPause {
  /** `store` keeps each credential digest's pause end (Date.now() clock): in process, or Redis. */
  constructor(
    private readonly store: PauseStore,
    private readonly events: UpstreamEvents | undefined,
  ) {}

  /** Milliseconds left of the credential's pause; 0 when it has none. */
  left(digest: string): Promise<number> {
    return this.store.pausedUntil(digest).then(leftOf);
  }

  /** Starts (or lengthens) the credential's pause: the upstream asked for `seconds` of quiet. */
  async start(digest: string, seconds: number): Promise<void> {
    // The store keeps the later of two pauses.
    await this.store.pause(digest, Date.now() + Math.min(seconds * 1000, MAX_PAUSE_MS));
  }

  /**
   * Waits until the credential's pause is over, or refuses the call at once with RATE_LIMITED (and
   * the seconds left as retryAfter) when the pause outlasts the operation's deadline.
   */
  waitOut(call: Call): Promise<void> {
    return this.store.pausedUntil(call.digest).then((until) => {
      const left = leftOf(until);
      if (left === 0) return;
      if (left + MIN_ATTEMPT_MS > call.deadline - performance.now()) {
        const retryAfter = retryAfterFromMs(left);
        this.events?.rateLimited?.({ route: call.request.route, source: 'gateway', retryAfter });
        throw new AttemptFailure(new GatewayError('RATE_LIMITED', MESSAGES.PAUSED, { retryAfter }), 'local');
      }
      return sleep(left);
    });
  }
}

const leftOf = (until: number | undefined): number =>
  until === undefined ? 0 : Math.max(0, until - Date.now());

/**
 * The pause's two stages over one credential pause: `wait` before a slot is taken (paused calls hold
 * none), `stage` right before sending.
 */
export function pauseStages(options: PauseOptions): { wait: Stage; stage: Stage } {
  const pause = new CredentialPause(options.pauses ?? new MemoryPauseStore(), options.events);
  return { wait: pauseWaitStage(pause), stage: pauseStage(pause, options.events) };
}

/** Waits a pause out before the call goes on (before a slot is taken: paused calls hold none). */
const pauseWaitStage =
  (pause: CredentialPause): Stage =>
  (next) =>
  (call) =>
    pause.waitOut(call).then(() => next(call));

/**
 * Waits a pause out (one may have begun while the call waited for its slot), then sends; a 429
 * from the upstream starts the credential's pause for its Retry-After.
 */
const pauseStage = (pause: CredentialPause, events: UpstreamEvents | undefined): Stage => {
  /** A 429 from the upstream starts the credential's pause for its Retry-After, then fails the call. */
  const onFailure = async (call: Call, caught: unknown): Promise<never> => {
    const error = caught instanceof AttemptFailure ? caught.error : undefined;
    if (error instanceof UpstreamError && error.status === 429) {
      const retryAfter = error.details.retryAfter;
      if (retryAfter) await pause.start(call.digest, retryAfter);
      events?.rateLimited?.({ route: call.request.route, source: 'upstream', retryAfter });
    }
    throw caught;
  };
  return (next) => (call) =>
    pause.waitOut(call).then(() => callNext(next, call).catch((caught: unknown) => onFailure(call, caught)));
};
