// The pause after a 429 per credential digest: until when (epoch ms) nothing is sent for it, so a
// burst does not spend the next window's quota on calls that could only be refused again.
import { LRUCache } from 'lru-cache';
import { MINUTE_MS } from '../time';

export interface PauseStore {
  /** Pauses until `untilMs` (epoch ms); a later pause already set wins. */
  pause(digest: string, untilMs: number): Promise<void>;
  /** Until when the credential is paused, or undefined when it is not (any more). */
  pausedUntil(digest: string): Promise<number | undefined>;
}

/** Longest pause kept: the upstream's rate window is 60 s. */
export const MAX_PAUSE_MS = MINUTE_MS;

export class MemoryPauseStore implements PauseStore {
  private readonly until: LRUCache<string, number>;

  constructor(
    options: { maxDigests?: number } = {},
    private readonly now: () => number = Date.now,
  ) {
    this.until = new LRUCache({ max: options.maxDigests ?? 10_000 });
  }

  async pause(digest: string, untilMs: number): Promise<void> {
    const capped = Math.min(untilMs, this.now() + MAX_PAUSE_MS);
    if (capped > (this.until.get(digest) ?? 0)) this.until.set(digest, capped);
  }

  async pausedUntil(digest: string): Promise<number | undefined> {
    const until = this.until.get(digest);
    if (until === undefined) return undefined;
    if (until > this.now()) return until;
    this.until.delete(digest);
    return undefined;
  }

  /** Hands over and forgets the pauses still running (Redis is back: it must hold them). */
  drain(): Map<string, number> {
    const now = this.now();
    const running = new Map([...this.until.entries()].filter(([, until]) => until > now));
    this.until.clear();
    return running;
  }
}
