// A write through the gateway, announced at once: the endpoint's event is published to every
// subscriber of the account (on every replica, through the feed) and folded into the stored
// snapshot, marked as written, so the next poll neither announces it again nor undoes it with a
// walk that began before the write (snapshot.ts settleWalk).
import type { Endpoint } from '../upstream';
import { type EndpointEventPayload, type EndpointWrite, endpointEvent } from './endpoint-events';
import type { LiveFeed } from './feed';
import { KINDS } from './kinds';
import { nextVersion, type Snapshot } from './snapshot';
import type { Snapshots } from './snapshots';

/** The event a write makes against what subscribers last saw (`listed`), or none. */
function eventOf(
  write: EndpointWrite,
  listed: Endpoint | undefined,
  at: string,
): EndpointEventPayload | undefined {
  if (write.type === 'deleted') return listed ? endpointEvent('OFFLINE', listed, at) : undefined;
  // A poll that listed the write before its answer came back has announced it already.
  const seen = listed?.updatedAt;
  if (seen !== undefined && seen === write.endpoint.updatedAt) return undefined;
  return endpointEvent(listed ? 'UPDATED' : 'ONLINE', write.endpoint, at);
}

/** The id a write is about. */
const idOf = (write: EndpointWrite): string => (write.type === 'deleted' ? write.id : write.endpoint.id);

/** The items with the write applied: gone, changed in place, or new and first (the newest). */
function itemsAfter(items: readonly Endpoint[], write: EndpointWrite, listed: boolean): Endpoint[] {
  const id = idOf(write);
  if (write.type === 'deleted') return items.filter((item) => item.id !== id);
  return listed ? items.map((item) => (item.id === id ? write.endpoint : item)) : [write.endpoint, ...items];
}

/** The snapshot with the write applied and marked. */
function applied(
  snapshot: Snapshot<Endpoint>,
  write: EndpointWrite,
  listed: boolean,
  at: number,
): Snapshot<Endpoint> {
  return {
    version: nextVersion(snapshot),
    observedAt: new Date(at).toISOString(),
    items: itemsAfter(snapshot.items, write, listed),
    writes: { ...snapshot.writes, [idOf(write)]: at },
  };
}

export async function announceEndpointWrite(
  deps: { readonly feed: LiveFeed; readonly snapshots: Snapshots },
  digest: string,
  write: EndpointWrite,
): Promise<void> {
  const at = Date.now();
  const observedAt = new Date(at).toISOString();
  const stored = (await deps.snapshots.get('endpoints', digest)) as Snapshot<Endpoint> | undefined;
  const listed = stored?.items.find((item) => item.id === idOf(write));
  const event = eventOf(write, listed, observedAt);
  let version = nextVersion(stored);
  if (stored !== undefined) {
    const next = applied(stored, write, listed !== undefined, at);
    version = next.version;
    await deps.snapshots.set('endpoints', digest, next);
  }
  if (event !== undefined)
    deps.feed.publish(KINDS.endpoints.topic, digest, { type: 'changes', version, events: [event] });
}
