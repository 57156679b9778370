// A circuit breaker for one upstream: after `failureThreshold` consecutive failures (connection
// errors, timeouts, 5xx) it refuses every call for `cooldownMs`, then lets one probe through; the
// probe's outcome closes the circuit or opens it for another cool-down.

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failures that open the circuit; 0 turns the breaker off. */
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  readonly onChange?: (state: CircuitState) => void;
  readonly now?: () => number;
}

/** What `admit` hands out: a normal pass, or the single probe of a half-open circuit. */
export type Ticket = 'pass' | 'probe';

export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions) {
    this.now = options.now ?? performance.now.bind(performance);
  }

  get state(): CircuitState {
    return this.current;
  }

  /** A ticket to send, or undefined when the circuit refuses the call (open, or a probe is out). */
  admit(): Ticket | undefined {
    if (this.current === 'closed') return 'pass';
    if (this.current === 'open') {
      if (this.now() - this.openedAt < this.options.cooldownMs) return undefined;
      this.set('half-open');
    }
    if (this.probing) return undefined;
    this.probing = true;
    return 'probe';
  }

  /** The outcome of a call admitted with `ticket`: `healthy` when the upstream answered sanely. */
  record(ticket: Ticket, healthy: boolean): void {
    if (this.options.failureThreshold === 0) return;
    if (ticket === 'probe') {
      this.probing = false;
      if (healthy) this.close();
      else this.open();
      return;
    }
    // Late outcomes of calls admitted before the circuit opened do not move it.
    if (this.current !== 'closed') return;
    if (healthy) {
      this.failures = 0;
      return;
    }
    this.failures += 1;
    if (this.failures >= this.options.failureThreshold) this.open();
  }

  /** Hands back a ticket whose outcome says nothing about the upstream: the tally does not move. */
  release(ticket: Ticket): void {
    if (ticket === 'probe') this.probing = false;
  }

  private open(): void {
    this.openedAt = this.now();
    this.set('open');
  }

  private close(): void {
    this.failures = 0;
    this.set('closed');
  }

  private set(state: CircuitState): void {
    if (this.current === state) return;
    this.current = state;
    this.options.onChange?.(state);
  }
}
