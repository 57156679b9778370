// The lookups a live observation's events are joined with (a tunnel's node, an endpoint's domain):
// one set per observation (one walk, or one write) and selection, made when the first of its events
// is read on this replica and shared by every subscriber of the account here that runs the same
// subscription (document and variables) and by every event of that observation. So 100 subscribers
// of one ONLINE cost the upstream calls of one, and the 1,000 items of a current list joined to 20
// domains, 100 at a time, cost one call, not 1,000. A later observation has its own: its events see the
// upstream as it is then, and an error is that observation's alone. Pages they read (a session's
// endpoints) are kept in the observation's own read cache (context.ts). Their calls are counted per
// observation (the prediction bounds them: gateway/limits/observation-joins.ts) and into the metric
// of live join calls. The live side keeps one ObservationLookups per account it observes
// (live/observation/account-observers.ts), so they go, and their client with its key, when the
// account's last subscriber leaves.
import { LRUCache } from 'lru-cache';

/**
 * Observations (and selections) whose lookups are kept at once, the least recently read dropped
 * first: a reader still on an old one (a long current list) keeps it in use; a reader further
 * behind joins its events again. Each holds at most the items its own events refer to, so this
 * bounds the memory at 16 times what one list's joins take.
 */
const KEPT = 16;

/** What names an event's observation: every live event carries when it was observed. */
export interface Observed {
  readonly observedAt: string;
}

/** One account's lookups per observation and selection. */
export class ObservationLookups {
  /** Made on the first join: most accounts' events select none (and a refused one reads none). */
  private scopes: LRUCache<string, { readonly value: unknown }> | undefined;

  /**
   * The lookups of `event`'s observation for subscriptions that ask `selection`, made by `make` for
   * its first event read here.
   */
  of<T>(event: Observed, selection: string, make: () => T): T {
    this.scopes ??= new LRUCache({ max: KEPT });
    const key = `${event.observedAt} ${selection}`;
    const held = this.scopes.get(key);
    if (held !== undefined) return held.value as T;
    const value = make();
    this.scopes.set(key, { value });
    return value;
  }

  clear(): void {
    this.scopes?.clear();
  }
}
