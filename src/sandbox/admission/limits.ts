// Per-key admission control: the rolling-window rate limit (ERR_NGROK_226) and the optional cap on
// simultaneous requests (ERR_NGROK_225). Rejected requests do not use up the window.
import { ApiError, apiError } from '../api/errors';

function describeInterval(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('rateLimit.max must be a positive integer');
    if (!(windowMs > 0)) throw new RangeError('rateLimit.windowMs must be positive');
  }

  /** Records one request for `key`, or throws 429 with Retry-After = seconds until the oldest hit expires. */
  admit(key: string): void {
    const now = this.now();
    const hits = this.hits.get(key) ?? [];
    while (hits.length > 0 && (hits[0] ?? 0) <= now - this.windowMs) hits.shift();
    if (hits.length >= this.max) {
      const waitMs = (hits[0] ?? now) + this.windowMs - now;
      const error = apiError('ERR_NGROK_226', { MAX: this.max, INTERVAL: describeInterval(this.windowMs) });
      throw new ApiError(error.status, error.errorCode, error.message, Math.max(1, Math.ceil(waitMs / 1000)));
    }
    hits.push(now);
    this.hits.set(key, hits);
  }
}

export class ConcurrencyCap {
  private readonly active = new Map<string, number>();

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError('maxConcurrentPerKey must be a positive integer');
  }

  /** Admits one request for `key` and returns its release function, or throws 429 ERR_NGROK_225. */
  enter(key: string): () => void {
    const current = this.active.get(key) ?? 0;
    if (current >= this.max) throw apiError('ERR_NGROK_225', { MAX: this.max });
    this.active.set(key, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(key) ?? 1) - 1;
      if (left === 0) this.active.delete(key);
      else this.active.set(key, left);
    };
  }
}
