// One poller's hold on its lease: taken before it polls, renewed on a timer while it holds it (a
// walk paced by the budget can outlast the lease), and lost as soon as a renewal is refused. A
// renewal Redis did not answer (slow, or this replica too busy to read the answer within
// REDIS_TIMEOUT_MS) loses nothing while the lease is surely still valid: it lasts ttlMs from the
// last answered take or renewal, counted from when that was sent; it is held until a sixth of that
// is left, no longer.
import type { PollLease } from './lease';

export class LeaseKeeper {
  private holding = false;
  private timer: NodeJS.Timeout | undefined;
  /** performance.now() past which the lease may expire unrenewed, less the margin. */
  private validUntil = 0;

  constructor(
    private readonly lease: PollLease,
    private readonly digest: string,
    /** Called with each change of `held`. */
    private readonly onChange: (held: boolean) => void,
  ) {}

  get held(): boolean {
    if (this.holding && performance.now() >= this.validUntil) this.lose();
    return this.holding;
  }

  /** Takes the lease; true when this process holds it now. */
  async take(): Promise<boolean> {
    if (this.held) return true;
    const sent = performance.now();
    // A store that fails counts as a refusal: the poller waits and asks again.
    if (!(await this.lease.take(this.digest).catch(() => false))) return false;
    this.extend(sent);
    this.change(true);
    this.schedule();
    return true;
  }

  /** Renews now; false (and no longer held) when another replica has the lease, or may have. */
  async confirm(): Promise<boolean> {
    if (!this.held) return false;
    const sent = performance.now();
    const renewal = await this.lease.renew(this.digest).catch(() => 'lost' as const);
    if (renewal === 'renewed') this.extend(sent);
    else if (renewal === 'lost') this.lose();
    return this.held;
  }

  /** Gives the lease up (the poller stops), so another replica need not wait for it to expire. */
  async release(): Promise<void> {
    if (!this.holding) return;
    this.lose();
    await this.lease.release(this.digest).catch(() => undefined);
  }

  private extend(sent: number): void {
    this.validUntil = sent + (this.lease.ttlMs * 5) / 6;
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
