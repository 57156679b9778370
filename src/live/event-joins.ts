// What the joins of one event are resolved with (its tunnel's node, an endpoint by id): made for
// the event when its first subscriber on this replica reads it, and shared by every other subscriber
// of the account here, so 100 subscribers of one ONLINE cost the upstream calls of one. Each event
// has its own: a later event sees the upstream as it is then, and an error is that event's alone.
// They hang off the credential's entry (subscriptions.ts), so they go, and their client with its
// key, when the credential's last stream ends.

export class EventJoins {
  private scopes = new WeakMap<object, { readonly value: unknown; readonly until: number }>();

  /** `freshMs`: how long an event read again (an includeCurrent item of a quiet account) keeps its joins. */
  constructor(private readonly freshMs: number) {}

  /** The joins of `event`, made by `make` for its first reader (or once the last ones are stale). */
  of<T>(event: object, make: () => T): T {
    const now = performance.now();
    const held = this.scopes.get(event);
    if (held !== undefined && held.until > now) return held.value as T;
    const value = make();
    this.scopes.set(event, { value, until: now + this.freshMs });
    return value;
  }

  clear(): void {
    this.scopes = new WeakMap();
  }
}
