// The timeout of one upstream attempt, measured against the upstream rather than the gateway's own
// pauses. A timer that fires late means the event loop was stalled (a long garbage collection, a
// CPU-starved container); an answer that arrived meanwhile sits unread in the socket. Such a timer
// grants the lost time once more, at most the timeout again, before it aborts, so a stall of the
// gateway does not turn a timely answer into UPSTREAM_TIMEOUT. A hung upstream still times out.

/** A timer this much later than due counts as stalled. */
const STALL_MS = 20;

export interface AttemptTimeout {
  /** Aborts with a TimeoutError when the time is up; made on first use (the exchange needs none). */
  readonly signal: AbortSignal;
  /** Stops the timer once the attempt is over. */
  clear(): void;
}

/** `onTimeout` is told the TimeoutError when the time is up (the exchange aborts its request with it). */
export function attemptTimeout(ms: number, onTimeout?: (reason: DOMException) => void): AttemptTimeout {
  let controller: AbortController | undefined;
  let reason: DOMException | undefined;
  let due = performance.now() + ms;
  let graced = false;
  const fire = () => {
    const late = performance.now() - due;
    if (!graced && late > STALL_MS) {
      graced = true;
      const grace = Math.min(late, ms);
      due = performance.now() + grace;
      timer = setTimeout(fire, grace);
      return;
    }
    reason = new DOMException('The upstream did not answer in time.', 'TimeoutError');
    controller?.abort(reason);
    onTimeout?.(reason);
  };
  let timer = setTimeout(fire, ms);
  return {
    get signal() {
      if (controller === undefined) {
        controller = new AbortController();
        if (reason) controller.abort(reason);
      }
      return controller.signal;
    },
    clear: () => clearTimeout(timer),
  };
}
