// A list held newest first (the order of every list, see paging.ts) with an index by id: how the
// stand-in keeps an account's tunnels and its cloud endpoints.
import { firstOlderThan, newestFirst } from './paging';

export class NewestFirst<T extends { readonly id: string }> {
  private readonly list: T[];
  private readonly byId = new Map<string, T>();

  /** Holds `items` as they are (the caller copies them); `what` names them when an id repeats. */
  constructor(items: readonly T[], what: string) {
    this.list = [...items].sort(newestFirst);
    for (const item of this.list) {
      if (this.byId.has(item.id)) throw new Error(`duplicate ${what} id in seed: ${item.id}`);
      this.byId.set(item.id, item);
    }
  }

  /** Newest first; the caller reads it, never changes it. */
  get items(): readonly T[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** A new item goes in its place by id; one with a held id takes the place of the old one. */
  put(item: T): void {
    const existing = this.byId.get(item.id);
    if (existing === undefined) this.list.splice(firstOlderThan(this.list, item.id), 0, item);
    else this.list[this.list.indexOf(existing)] = item;
    this.byId.set(item.id, item);
  }

  /** False when no item has that id. */
  remove(id: string): boolean {
    const item = this.byId.get(id);
    if (item === undefined) return false;
    this.byId.delete(id);
    this.list.splice(this.list.indexOf(item), 1);
    return true;
  }
}
