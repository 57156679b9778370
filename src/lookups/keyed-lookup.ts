// What every lookup of one operation shares: the one DataLoader of the operation for its kind and
// what the operation already knows of it (the items its lists showed and its writes answered). A
// list feeds it and primes the loader, a write tells it what it did (saved, deleted, changed), and
// the batch fetches only the keys nothing showed, once the operation's lists in flight have settled.
import DataLoader from 'dataloader';
import type { Listings } from './listings';

export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

export abstract class KeyedLookup<T, Key> {
  /**
   * What lists and writes showed this operation: the batch fetches no key found here. It and the
   * loader are made on first use: most operations touch one or two of their lookups.
   */
  private knownItems: Map<string, T> | undefined;
  private itemLoader: DataLoader<string, T | null> | undefined;
  /**
   * Lists shown since the map and the loader were last used: added to the one and primed into the
   * other on the next use of either, before anything else touches them, so both answer what doing
   * it at once would give. An operation that only lists makes no loader, no map entry and no
   * promise per item.
   */
  private pending: (readonly T[])[] | undefined;

  constructor(
    /** The operation's lists in flight, of every kind (shared by its lookups); none: no wait for lists. */
    protected readonly listings: Listings | undefined,
    /** Batch when the lists in flight have settled (Listings.schedule), or DataLoader's next tick. */
    private readonly schedule: 'after-lists' | 'next-tick' = 'next-tick',
  ) {}

  /** The key of an item (its id, or its route) as a string. */
  protected abstract keyOf(item: T): string;
  /** The string of a key the callers hold. */
  protected abstract keyString(key: Key): string;
  /** Fetches `keys` (none of them known): the items found go through `listed`, failures into `failed`. */
  protected abstract fetch(keys: readonly string[], failed: Map<string, Error>): Promise<void>;

  private get known(): Map<string, T> {
    this.takePending();
    this.knownItems ??= new Map();
    return this.knownItems;
  }

  private get loader(): DataLoader<string, T | null> {
    this.takePending();
    this.itemLoader ??= this.newLoader();
    return this.itemLoader;
  }

  private newLoader(): DataLoader<string, T | null> {
    const listings = this.listings;
    const options = this.schedule === 'after-lists' && listings ? { batchScheduleFn: listings.schedule } : {};
    return new DataLoader((keys) => this.batch(keys), options);
  }

  /** The pending lists, into the map and the loader (each made now if need be). */
  private takePending(): void {
    const lists = this.pending;
    if (lists === undefined) return;
    this.pending = undefined;
    this.knownItems ??= new Map();
    this.itemLoader ??= this.newLoader();
    const known = this.knownItems;
    const loader = this.itemLoader;
    for (const items of lists)
      for (const item of items) {
        const key = this.keyOf(item);
        known.set(key, item);
        loader.prime(key, item);
      }
  }

  /** The item with this key, or null when the account has none. */
  load(key: Key): Promise<T | null> {
    return this.loader.load(this.keyString(key));
  }

  /** The items with these keys, in order: null for an unknown one, an Error for a failed fetch. */
  loadMany(keys: readonly Key[]): Promise<(T | null | Error)[]> {
    return this.loader.loadMany(keys.map((key) => this.keyString(key)));
  }

  /** A write answered `item`: later reads of this operation see it without a call. */
  saved(item: T): void {
    const key = this.keyOf(item);
    this.known.set(key, item);
    this.loader.clear(key).prime(key, item);
  }

  /** A write deleted `key`: later reads of this operation see null without a call. */
  deleted(key: Key): void {
    const k = this.keyString(key);
    this.known.delete(k);
    // DataLoader hands a primed null through as null.
    this.loader.clear(k).prime(k, null);
  }

  /** A write to `key` is under way or its answer does not show the item: later reads fetch it again. */
  changed(key: Key): void {
    const k = this.keyString(key);
    this.known.delete(k);
    this.loader.clear(k);
  }

  /** `remove` deletes `key` upstream: reads meanwhile fetch it again, reads after it see null. */
  async deleting(key: Key, remove: () => Promise<unknown>): Promise<void> {
    this.changed(key);
    await remove();
    this.deleted(key);
  }

  /** `work`, a list call, counted among the operation's lists in flight until it settles. */
  protected track<W>(work: Promise<W>): Promise<W> {
    return this.listings ? this.listings.track(work) : work;
  }

  /** Items a list showed: known from now on, and primed (a later load of one costs no call). */
  protected listed(items: readonly T[]): void {
    if (this.pending === undefined) this.pending = [items];
    else this.pending.push(items);
  }

  /** What this operation knows of `key` already (a list or a write showed it). */
  protected knownItem(key: string): T | undefined {
    return this.knownItems === undefined && this.pending === undefined ? undefined : this.known.get(key);
  }

  private async batch(keys: readonly string[]): Promise<(T | null | Error)[]> {
    await this.listings?.settled();
    const unknown = [...new Set(keys.filter((key) => !this.known.has(key)))];
    const failed = new Map<string, Error>();
    if (unknown.length > 0) await this.fetch(unknown, failed);
    return keys.map((key) => this.known.get(key) ?? failed.get(key) ?? null);
  }
}
