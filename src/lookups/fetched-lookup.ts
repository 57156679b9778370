// A kind read one GET per id, its list having no id filter (tunnels). References come many at a
// time: when the kind says `list-then-get`, a batch of two or more unknown ids lists the newest 100
// first, and only the ids it misses while more items exist are loaded by id.
import DataLoader from 'dataloader';
import { MAX_PAGE_SIZE } from '../upstream';
import { asError } from './keyed-lookup';
import { KindLookup } from './kind-lookup';

export class FetchedLookup<T extends { readonly id: string }> extends KindLookup<T> {
  /**
   * Batches the references (Ref.node) of a response; it caches nothing itself: what it reads goes
   * into this lookup like any list (known, and primed into the one loader by id). Made on first use.
   */
  private referenced: DataLoader<string, T | null> | undefined;

  override loadReference(id: string): Promise<T | null> {
    if (this.resource.byReference !== 'list-then-get') return this.load(id);
    this.referenced ??= new DataLoader((ids) => this.loadReferenced(ids), { cache: false });
    return this.referenced.load(id);
  }

  /** One GET per id. */
  protected async fetch(ids: readonly string[], failed: Map<string, Error>): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        try {
          const item = await this.source.getItem(this.resource, id);
          if (item) this.listed([item]);
        } catch (error) {
          failed.set(id, asError(error));
        }
      }),
    );
  }

  private async loadReferenced(ids: readonly string[]): Promise<(T | null | Error)[]> {
    await this.listings?.settled();
    const unknown = new Set(ids.filter((id) => !this.knownItem(id)));
    if (unknown.size < 2) return this.loadMany(ids);
    try {
      const result = await this.source.listItems(this.resource, { limit: MAX_PAGE_SIZE });
      this.listed(result.items);
      if (result.nextPageUri === null) return ids.map((id) => this.knownItem(id) ?? null);
    } catch (error) {
      const failure = asError(error);
      return ids.map((id) => this.knownItem(id) ?? failure);
    }
    return this.loadMany(ids);
  }
}
