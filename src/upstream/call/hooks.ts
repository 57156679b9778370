// The transport's hooks for metrics and logs; every one optional. Nothing here carries a credential
// or a body.
import type { ClaimKind } from '../../shared-state';
import type { Method, RouteName } from './request';

/** The circuit breaker's state (stages/breaker.ts): 'open' refuses calls, 'half-open' lets one probe through. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Who claims a call from the upstream budget: writes first, then client reads, then the live poller. */
type BudgetKind = ClaimKind;

export interface UpstreamEvents {
  /**
   * One attempt sent to the upstream finished: status when an answer came, the gateway error code
   * when it failed. Calls refused inside the gateway (circuit open, queue full) send nothing and
   * report no attempt.
   */
  attempt?(e: { route: RouteName; method: Method; status?: number; code?: string; durationMs: number }): void;
  /** An identical in-flight GET was joined instead of sent. */
  coalesced?(e: { route: RouteName }): void;
  /** A read was answered by the read cache (CACHE_TTL_MS) without a call of its own. */
  cacheHit?(e: { route: RouteName }): void;
  /**
   * A failed attempt will be retried after `delayMs`. `attempt` is the number of the attempt about
   * to be made (2 for the first retry); `code` and `status` say why the previous one failed.
   */
  retry?(e: {
    route: RouteName;
    method: Method;
    attempt: number;
    delayMs: number;
    code: string;
    status?: number;
  }): void;
  /** The circuit breaker of this upstream changed state ('open': calls fail at once; 'half-open': one probe). */
  circuit?(state: CircuitState): void;
  /**
   * A call was refused for rate: by the upstream (a 429, `source: 'upstream'`, `retryAfter` from its
   * Retry-After header when sent) or by the gateway itself (`source: 'gateway'`: this credential's
   * queue of waiting calls was full, its pause after a 429 or its upstream budget's next free slot
   * outlasts the operation's deadline).
   */
  rateLimited?(e: { route: RouteName; source: 'upstream' | 'gateway'; retryAfter?: number }): void;
  /**
   * The gateway's own upstream budget (UPSTREAM_RATE_LIMIT_PER_MIN) answered a claim for one attempt:
   * 'granted' (`remaining`: calls of this kind left in the rolling window), 'waited' (a slot frees
   * within the operation's deadline: the call waits `waitMs`, then claims again) or 'refused'
   * (RATE_LIMITED with `retryAfter`; nothing is sent). `limit` is the budget per credential.
   */
  budget?(e: {
    route: RouteName;
    kind: BudgetKind;
    outcome: 'granted' | 'waited' | 'refused';
    limit: number;
    remaining?: number;
    waitMs?: number;
    retryAfter?: number;
  }): void;
}

/** @internal test seam: Every hook's name, for whoever listens to all of them (tests record each). */
export const UPSTREAM_EVENT_NAMES = [
  'attempt',
  'coalesced',
  'cacheHit',
  'retry',
  'circuit',
  'rateLimited',
  'budget',
] as const satisfies readonly (keyof UpstreamEvents)[];

// A hook added to UpstreamEvents without its name above fails to compile here.
const everyHookNamed: Exclude<keyof UpstreamEvents, (typeof UPSTREAM_EVENT_NAMES)[number]> extends never
  ? true
  : never = true;
void everyHookNamed;
