// The messages one event stream has received and not yet turned into events, in order: each is
// admitted against the subscriber's byte cap (backlog.ts) as it arrives, and a read waits here for
// the next one.

import type { FeedMessage } from '../../observation/feed';
import { type Backlog, messageBytes } from './backlog';

export class Inbox {
  private readonly messages: FeedMessage[] = [];
  private waiter: (() => void) | undefined;

  constructor(private readonly backlog: Backlog) {}

  /** Messages waiting. */
  get size(): number {
    return this.messages.length;
  }

  /** Queues `message` and wakes the reader; false when its bytes do not fit (nothing queued). */
  receive(message: FeedMessage): boolean {
    if (!this.backlog.admit(messageBytes(message))) return false;
    this.messages.push(message);
    this.wake();
    return true;
  }

  /** The oldest message, taken out. */
  take(): FeedMessage | undefined {
    return this.messages.shift();
  }

  /** Resolves when a message arrives or wake() is called (the stream ended). */
  arrival(): Promise<void> {
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  clear(): void {
    this.messages.length = 0;
  }

  /** Index of the first queued observation once there is one, -1 when `ended` or an end comes first. */
  async firstObservation(ended: () => boolean): Promise<number> {
    for (;;) {
      if (ended()) return -1;
      const index = this.messages.findIndex((m) => m.type !== 'ended');
      const end = this.messages.findIndex((m) => m.type === 'ended');
      if (end !== -1 && (index === -1 || end < index)) return -1;
      if (index !== -1) return index;
      await this.arrival();
    }
  }

  /** Drops the messages up to `index` included, their bytes released. */
  dropThrough(index: number): void {
    for (const m of this.messages.splice(0, index + 1)) this.backlog.release(messageBytes(m));
  }
}
