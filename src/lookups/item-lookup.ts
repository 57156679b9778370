// What every lookup of one kind by id shares: the one DataLoader of the operation for that kind and
// what the operation already knows of it (the items its lists showed and its writes answered). A
// list feeds it and primes the loader, a write tells it what it did (saved, deleted, changed), and
// the batch fetches only the ids nothing showed, once the operation's lists in flight have settled.
import DataLoader from 'dataloader';
import { MAX_PAGE_SIZE } from '../upstream';
import type { Listings } from './listings';

export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** `ids` in chunks of one upstream page (100): one filtered list call each. */
export function pagesOf(ids: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += MAX_PAGE_SIZE) chunks.push(ids.slice(i, i + MAX_PAGE_SIZE));
  return chunks;
}

export abstract class ItemLookup<T extends { readonly id: string }> {
  /**
   * What lists and writes showed this operation: the batch fetches no id found here. It and the
   * loader are made on first use: most operations touch one or two of their six lookups.
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
    /** The operation's lists in flight, of every kind (shared with the other lookups). */
    protected readonly listings: Listings,
    /** Batch when the lists in flight have settled (Listings.schedule), or DataLoader's next tick. */
    private readonly schedule?: 'after-lists',
  ) {}

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
    const options = this.schedule === 'after-lists' ? { batchScheduleFn: this.listings.schedule } : {};
    return new DataLoader((ids) => this.batch(ids), options);
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
        known.set(item.id, item);
        loader.prime(item.id, item);
      }
  }

  /** The item with this id, or null when the account has none. */
  load(id: string): Promise<T | null> {
    return this.loader.load(id);
  }

  /** The items with these ids, in order: null for an unknown id, an Error for a failed fetch. */
  loadMany(ids: readonly string[]): Promise<(T | null | Error)[]> {
    return this.loader.loadMany(ids);
  }

  /** A write answered `item`: later reads of this operation see it without a call. */
  saved(item: T): void {
    this.known.set(item.id, item);
    this.loader.clear(item.id).prime(item.id, item);
  }

  /** A write deleted `id`: later reads of this operation see null without a call. */
  deleted(id: string): void {
    this.known.delete(id);
    // DataLoader hands a primed null through as null.
    this.loader.clear(id).prime(id, null);
  }

  /** A write to `id` is under way or its answer does not show the item: later reads fetch it again. */
  changed(id: string): void {
    this.known.delete(id);
    this.loader.clear(id);
  }

  /** `remove` deletes `id` upstream: reads meanwhile fetch it again, reads after it see null. */
  async deleting(id: string, remove: () => Promise<unknown>): Promise<void> {
    this.changed(id);
    await remove();
    this.deleted(id);
  }

  /** Items a list showed: known from now on, and primed (a later load of one costs no call). */
  protected listed(items: readonly T[]): void {
    if (this.pending === undefined) this.pending = [items];
    else this.pending.push(items);
  }

  /** What this operation knows of `id` already (a list or a write showed it). */
  protected knownItem(id: string): T | undefined {
    return this.knownItems === undefined && this.pending === undefined ? undefined : this.known.get(id);
  }

  /** Fetches `ids` (none of them known): the items found go through `listed`, failures into `failed`. */
  protected abstract fetch(ids: readonly string[], failed: Map<string, Error>): Promise<void>;

  private async batch(ids: readonly string[]): Promise<(T | null | Error)[]> {
    await this.listings.settled();
    const unknown = [...new Set(ids.filter((id) => !this.known.has(id)))];
    const failed = new Map<string, Error>();
    if (unknown.length > 0) await this.fetch(unknown, failed);
    return ids.map((id) => this.known.get(id) ?? failed.get(id) ?? null);
  }
}
