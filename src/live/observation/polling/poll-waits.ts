// The poller's waits: between two turns, and for room in the account's poll budget. Each ends early
// when the poller stops; the wait between turns also when a new kind is wanted (a nudge).
import { setTimeout as sleep } from 'node:timers/promises';

/** The poller's share of its account's upstream budget. */
export interface PollBudget {
  /** Poll calls allowed per rolling minute: walks are spaced to fit. */
  readonly perMinute: number;
  /** Milliseconds until `calls` more poll calls fit (0: now). */
  wait(calls: number): Promise<number>;
}

export class PollWaits {
  private stopped = false;
  private readonly abort = new AbortController();
  /** Aborted to end the wait between two turns early (nudge). */
  private wake = new AbortController();

  constructor(private readonly budget: PollBudget) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Ends every wait now, and every later one at once. */
  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  /** Ends the wait between two turns now. */
  nudge(): void {
    this.wake.abort();
    this.wake = new AbortController();
  }

  /** Waits `ms` unless stopped (or, `wakeable`, nudged) meanwhile; false when stopped. */
  async pause(ms: number, wakeable = false): Promise<boolean> {
    if (this.stopped) return false;
    const signal = wakeable ? AbortSignal.any([this.abort.signal, this.wake.signal]) : this.abort.signal;
    if (ms > 0) await sleep(ms, undefined, { signal }).catch(() => undefined);
    return !this.stopped;
  }

  /** Waits until `calls` more fit in the budget; false when stopped. */
  async room(calls: number): Promise<boolean> {
    for (let wait = await this.budget.wait(calls); wait > 0; wait = await this.budget.wait(calls)) {
      if (!(await this.pause(wait))) return false;
    }
    return !this.stopped;
  }
}
