// A credential's poller budget: calls in the last rolling minute, and how long to wait before
// `n` more fit. The poller records calls after they are made and asks before it makes them.

const WINDOW_MS = 60_000;

export class RollingBudget {
  /** When each counted call was made (performance.now()), oldest first. */
  private readonly calls: number[] = [];

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls counted in the current window. */
  used(): number {
    const horizon = this.now() - WINDOW_MS;
    while (this.calls.length > 0 && (this.calls[0] ?? 0) <= horizon) this.calls.shift();
    return this.calls.length;
  }

  record(count: number): void {
    const at = this.now();
    for (let i = 0; i < count; i += 1) this.calls.push(at);
  }

  /** Milliseconds until `n` more calls fit in the window (0: now). `n` is capped at the budget. */
  waitFor(n: number): number {
    const need = Math.min(n, this.perMinute);
    const over = this.used() + need - this.perMinute;
    if (over <= 0) return 0;
    // The window must lose `over` calls: wait until the over-th oldest one leaves it.
    const leaving = this.calls[over - 1] ?? this.now();
    return Math.max(1, Math.ceil(leaving + WINDOW_MS - this.now()));
  }
}
