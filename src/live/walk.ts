// One walk of an account's tunnel list: every page of GET /tunnels (limit 100, newest first),
// through the public upstream client without the read cache. The only file that calls the upstream.
import type { NgrokClient, Tunnel } from '../upstream';

export const PAGE_LIMIT = 100;
/** 100 000 tunnels: far beyond any account; stops a upstream that never ends its list. */
const MAX_PAGES = 1_000;

export interface WalkHooks {
  /** Awaited before each page; the poller's budget gate. */
  beforePage(): Promise<void>;
  /** Runs one page call and counts the upstream attempts it made. */
  call<T>(fn: () => Promise<T>): Promise<T>;
}

/** Every tunnel online now, newest first; throws when any page fails (a partial list is no observation). */
export async function walkTunnels(client: NgrokClient, hooks: WalkHooks): Promise<Tunnel[]> {
  const tunnels: Tunnel[] = [];
  const seen = new Set<string>();
  let beforeId: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    await hooks.beforePage();
    const result = await hooks.call(() =>
      client.listTunnels({ limit: PAGE_LIMIT, beforeId, origin: 'poll' }),
    );
    for (const tunnel of result.tunnels) {
      if (seen.has(tunnel.id)) continue;
      seen.add(tunnel.id);
      tunnels.push(tunnel);
    }
    const last = result.tunnels.at(-1);
    if (result.nextPageUri === null || last === undefined || last.id === beforeId) return tunnels;
    beforeId = last.id;
  }
  throw new Error(`the tunnel list did not end within ${MAX_PAGES} pages`);
}
