// A kind whose list filters by id (endpoints, tunnel sessions, reserved domains and addresses): the
// unknown ids of a batch cost one filtered list call per 100 (`filter=obj.id in [...]`), never a GET.
import { MAX_PAGE_SIZE } from '../upstream';
import { asError } from './keyed-lookup';
import { KindLookup, pagesOf } from './kind-lookup';

export class ListedLookup<T extends { readonly id: string }> extends KindLookup<T> {
  protected async fetch(ids: readonly string[], failed: Map<string, Error>): Promise<void> {
    await Promise.all(
      pagesOf(ids).map(async (chunk) => {
        try {
          this.listed(
            (await this.source.listItems(this.resource, { limit: MAX_PAGE_SIZE, ids: chunk })).items,
          );
        } catch (error) {
          for (const id of chunk) failed.set(id, asError(error));
        }
      }),
    );
  }
}
