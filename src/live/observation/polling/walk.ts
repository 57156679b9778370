// One walk of an account's list of one kind: every page (limit 100, newest first) through the
// public upstream client without the read cache.
import type { NgrokClient } from '../../../upstream';
import type { KindRules, LiveEvent } from '../../kinds/kinds';
import { SnapshotTooLarge } from '../snapshots/shared-snapshots';
import type { Listed } from '../snapshots/snapshot';

/** 100 000 items: far beyond any account; stops an upstream that never ends its list. */
const MAX_PAGES = 1_000;

export interface WalkHooks {
  /** Awaited before each page; the poller's budget gate. */
  beforePage(): Promise<void>;
  /** Runs one page call and counts the upstream attempts it made. */
  call<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Every item listed now, newest first; throws when any page fails (a partial list is no observation),
 * and SnapshotTooLarge as soon as the items passed `maxBytes` as JSON (the walk goes no further).
 */
export async function walkList(
  rules: KindRules<Listed, LiveEvent>,
  client: NgrokClient,
  hooks: WalkHooks,
  maxBytes: number,
): Promise<Listed[]> {
  const items: Listed[] = [];
  let bytes = 0;
  const seen = new Set<string>();
  let beforeId: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    await hooks.beforePage();
    const result = await hooks.call(() => rules.page(client, beforeId));
    for (const item of result.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
      bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
    }
    if (bytes > maxBytes) throw new SnapshotTooLarge(rules.kind, maxBytes);
    const last = result.items.at(-1);
    if (!result.next || last === undefined || last.id === beforeId) return items;
    beforeId = last.id;
  }
  throw new Error(`the ${rules.topic} list did not end within ${MAX_PAGES} pages`);
}
