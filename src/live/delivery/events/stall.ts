// A subscriber judged on time (LIVE_MAX_SUBSCRIBER_STALL_MS): the byte cap (backlog.ts) is checked
// only when something new is queued, so on a quiet account a subscriber that stopped reading would
// hold its transport's unsent bytes and its place in the current list forever. It is stalled when,
// for the whole window, something waited for it (events ready, or bytes unsent in its transport)
// and it took nothing: no event read, no byte of its transport's backlog written.

import { GatewayError } from '../../../errors';

/** The last item of a stream whose subscriber read nothing for `stallMs` while events waited. */
export const stalled = (stallMs: number): GatewayError =>
  new GatewayError(
    'RATE_LIMITED',
    `Read too slowly: nothing read for ${stallMs} ms while events waited; subscribe again with includeCurrent.`,
  );

export interface StallOptions {
  /** LIVE_MAX_SUBSCRIBER_STALL_MS. */
  readonly stallMs: number;
  /** Whether something waits for the subscriber now. */
  readonly waiting: () => boolean;
  /** Bytes its transport holds unsent now (0 without one). */
  readonly unsent: () => number;
  /** Called once, when the subscriber has stalled for `stallMs`. */
  readonly onStalled: () => void;
}

/** Checks per window: often enough that a stall is seen at most a quarter of the window late. */
const CHECKS_PER_WINDOW = 4;

export class StallWatch {
  private readonly timer: NodeJS.Timeout;
  /** When the subscriber last took something, or had nothing waiting (performance.now()). */
  private lastProgress = performance.now();
  private lastUnsent = 0;

  constructor(private readonly options: StallOptions) {
    this.timer = setInterval(() => this.check(), Math.max(10, options.stallMs / CHECKS_PER_WINDOW));
    this.timer.unref();
  }

  /** The subscriber took an event. */
  progress(): void {
    this.lastProgress = performance.now();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const { waiting, unsent, stallMs, onStalled } = this.options;
    const now = performance.now();
    const bytes = unsent();
    // Its transport wrote some of what it held: the client reads, however slowly.
    if (!waiting() || bytes < this.lastUnsent) this.lastProgress = now;
    this.lastUnsent = bytes;
    if (now - this.lastProgress < stallMs) return;
    this.stop();
    onStalled();
  }
}
