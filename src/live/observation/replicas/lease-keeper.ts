// One poller's hold on its lease: taken before it polls, renewed on a timer while it holds it (a
// walk paced by the budget can outlast the lease), and lost as soon as a renewal is refused.
import type { PollLease } from './lease';

export class LeaseKeeper {
  private holding = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly lease: PollLease,
    private readonly digest: string,
    /** Called with each change of `held`. */
    private readonly onChange: (held: boolean) => void,
  ) {}

  get held(): boolean {
    return this.holding;
  }

  /** Takes the lease; true when this process holds it now. */
  async take(): Promise<boolean> {
    if (this.holding) return true;
    // A store that fails counts as a refusal: the poller waits and asks again.
    if (!(await this.lease.take(this.digest).catch(() => false))) return false;
    this.change(true);
    this.schedule();
    return true;
  }

  /** Renews now; false (and no longer held) when another replica has the lease. */
  async confirm(): Promise<boolean> {
    if (!this.holding) return false;
    if (await this.lease.renew(this.digest).catch(() => false)) return this.holding;
    this.lose();
    return false;
  }

  /** Gives the lease up (the poller stops), so another replica need not wait for it to expire. */
  async release(): Promise<void> {
    if (!this.holding) return;
    this.lose();
    await this.lease.release(this.digest).catch(() => undefined);
  }

  private schedule(): void {
    if (!Number.isFinite(this.lease.renewMs)) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.confirm().then((held) => {
        if (held && this.timer === undefined) this.schedule();
      });
    }, this.lease.renewMs);
    this.timer.unref();
  }

  private lose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.holding) this.change(false);
  }

  private change(held: boolean): void {
    this.holding = held;
    this.onChange(held);
  }
}
