// The upstream's Retry-After header, read as whole seconds within bounds the gateway trusts: the
// pause, the retry wait and the client's retryAfter all use this one clamped value. (A wait the
// gateway computes itself, in ms, becomes a retryAfter through shared-state's retryAfterFromMs.)
import { MINUTE_MS } from '../../time';

/** At least a second: a 0 or a past date must not let a burst out at once. */
const MIN_RETRY_AFTER_S = 1;
/** At most the upstream's rate window. */
const MAX_RETRY_AFTER_S = MINUTE_MS / 1000;

const clamp = (seconds: number): number =>
  Math.min(MAX_RETRY_AFTER_S, Math.max(MIN_RETRY_AFTER_S, Math.ceil(seconds)));

/** Retry-After in whole seconds (1..60), from its delta-seconds or HTTP-date form; undefined if unreadable. */
export function retryAfterFromHeader(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  // A 400-digit number is Infinity here: clamped like any other large value.
  if (/^\d+$/.test(trimmed)) return clamp(Number(trimmed));
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : clamp((at - now) / 1000);
}
