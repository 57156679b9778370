// A credential's poller budget: calls in the last rolling minute, and how long to wait before
// `n` more fit. The poller records calls after they are made and asks before it makes them.
import { dropBefore, WINDOW_MS, whenFree } from '../shared-state';

export class RollingBudget {
  /** When each counted call was made (performance.now()), oldest first. */
  private readonly calls: number[] = [];

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls counted in the current window. */
  used(): number {
    dropBefore(this.calls, this.now() - WINDOW_MS);
    return this.calls.length;
  }

  record(count: number): void {
    const at = this.now();
    for (let i = 0; i < count; i += 1) this.calls.push(at);
  }

  /** Milliseconds until `n` more calls fit in the window (0: now). `n` is capped at the budget. */
  waitFor(n: number): number {
    this.used();
    // Room for `n` more: the window may hold at most perMinute - n + 1 calls before the last of them.
    const now = this.now();
    const at = whenFree(this.calls, this.perMinute - Math.min(n, this.perMinute) + 1, now, WINDOW_MS);
    return at <= now ? 0 : Math.max(1, Math.ceil(at - now));
  }
}
