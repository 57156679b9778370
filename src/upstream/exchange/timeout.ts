// The timeout of one upstream attempt, measured against the upstream rather than the gateway's own
// pauses. A timer that fires late means the event loop was stalled (a long garbage collection, a
// CPU-starved container); an answer that arrived meanwhile sits unread in the socket. Such a timer
// grants the lost time once more, at most the timeout again, before it aborts, so a stall of the
// gateway does not turn a timely answer into UPSTREAM_TIMEOUT. A hung upstream still times out.

/** A timer this much later than due counts as stalled. */
const STALL_MS = 20;

export interface AttemptTimeout {
  /** Stops the timer once the attempt is over. */
  clear(): void;
}

/** `onTimeout` is told a TimeoutError when the time is up (the exchange aborts its request with it). */
export function attemptTimeout(ms: number, onTimeout: (reason: DOMException) => void): AttemptTimeout {
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
    onTimeout(new DOMException('The upstream did not answer in time.', 'TimeoutError'));
  };
  let timer = setTimeout(fire, ms);
  return { clear: () => clearTimeout(timer) };
}
