// A rolling window of call times (oldest first): what every budget of upstream calls counts with.

/** Drops the calls made at or before `edge` (the start of the window). */
export function dropBefore(times: number[], edge: number): void {
  let expired = 0;
  while (expired < times.length && (times[expired] ?? 0) <= edge) expired += 1;
  if (expired > 0) times.splice(0, expired);
}

/**
 * When the window, holding at most `cap` calls, has room for one more: now, or when the call that
 * must leave first leaves it. `cap` 0 never has room: a whole window from now.
 */
export function whenFree(times: readonly number[], cap: number, now: number, windowMs: number): number {
  if (times.length < cap) return now;
  if (cap <= 0) return now + windowMs;
  return (times[times.length - cap] ?? now) + windowMs;
}
