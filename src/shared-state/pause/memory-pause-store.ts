// The pauses in this process: one replica's alone, or every replica's while Redis is down; the
// pauses still running then are handed to Redis when it is back, so no replica sends through them.
import { LRUCache } from 'lru-cache';
import { MAX_PAUSE_MS, type PauseStore } from './pause-store';

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

  async handOver(redis: PauseStore): Promise<void> {
    for (const [digest, until] of this.drain()) await redis.pause(digest, until);
  }
}
