// What the joins of live events are resolved with (a tunnel's node, an endpoint's domain): one set of
// lookups per observation (one walk, or one write), made when the first of its events is read on
// this replica and shared by every subscriber of the account here and by every event of that
// observation. So 100 subscribers of one ONLINE cost the upstream calls of one, and the 10,000 items
// of a current list joined to 20 domains cost 20 calls, not 10,000. A later observation has its own:
// its events see the upstream as it is then, and an error is that observation's alone. They hang off
// the credential's entry (live-events.ts), so they go, and their client with its key, when the
// credential's last stream ends.
import { LRUCache } from 'lru-cache';

/**
 * Observations whose joins are kept at once, the least recently read dropped first: a reader still
 * on an old one (a long current list) keeps it in use; a reader further behind joins its events
 * again. Each holds at most the items its own events refer to, so this bounds the memory at 16 times
 * what one list's joins take.
 */
const KEPT = 16;

/** What names an event's observation: every live event carries when it was observed. */
export interface Observed {
  readonly observedAt: string;
}

export class EventJoins {
  /** Made on the first join: most credentials' events select none (and a refused one reads none). */
  private scopes: LRUCache<string, { readonly value: unknown }> | undefined;

  /** The joins of `event`'s observation, made by `make` for its first event read here. */
  of<T>(event: Observed, make: () => T): T {
    this.scopes ??= new LRUCache({ max: KEPT });
    const held = this.scopes.get(event.observedAt);
    if (held !== undefined) return held.value as T;
    const value = make();
    this.scopes.set(event.observedAt, { value });
    return value;
  }

  clear(): void {
    this.scopes?.clear();
  }
}
