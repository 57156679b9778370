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

/** When the window has room for `n` more calls (n >= 1): it may hold at most `cap - n` before them. */
export const whenFreeFor = (
  times: readonly number[],
  cap: number,
  n: number,
  now: number,
  windowMs: number,
) => whenFree(times, cap - n + 1, now, windowMs);

/** A time on the budget's clock as a wait from `now`: 0 when it has come, else at least 1 ms. */
export const waitUntil = (at: number, now: number): number =>
  at <= now ? 0 : Math.max(1, Math.ceil(at - now));
