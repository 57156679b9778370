// What the joins of one event are resolved with (its tunnel's node, an endpoint by id): made for
// the event when its first subscriber on this replica reads it, and shared by every other subscriber
// of the account here, so 100 subscribers of one ONLINE cost the upstream calls of one. Each event
// has its own: a later event sees the upstream as it is then, and an error is that event's alone.
// They hang off the credential's entry (live-events.ts), so they go, and their client with its
// key, when the credential's last stream ends. Held for a bounded number of recent events: the
// current list's events outlive their reading (current-events.ts), their joins need not.
import { LRUCache } from 'lru-cache';

/** Events whose joins are kept at once: far more than subscribers read at the same moment. */
const KEPT = 1_024;

export class EventJoins {
  private readonly scopes: LRUCache<object, { readonly value: unknown }>;

  /** `freshMs`: how long an event read again (an includeCurrent item of a quiet account) keeps its joins. */
  constructor(freshMs: number) {
    this.scopes = new LRUCache({ max: KEPT, ttl: freshMs });
  }

  /** The joins of `event`, made by `make` for its first reader (or once the last ones are stale). */
  of<T>(event: object, make: () => T): T {
    const held = this.scopes.get(event);
    if (held !== undefined) return held.value as T;
    const value = make();
    this.scopes.set(event, { value });
    return value;
  }

  clear(): void {
    this.scopes.clear();
  }
}
