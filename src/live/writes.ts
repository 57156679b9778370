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

/** The snapshot with the write applied: a new endpoint first (the newest), a changed one in place. */
function applied(snapshot: Snapshot<Endpoint>, write: EndpointWrite, at: number): Snapshot<Endpoint> {
  const id = write.type === 'deleted' ? write.id : write.endpoint.id;
  const others = snapshot.items.filter((item) => item.id !== id);
  let items = others;
  if (write.type === 'saved') {
    const index = snapshot.items.findIndex((item) => item.id === id);
    items =
      index === -1
        ? [write.endpoint, ...others]
        : snapshot.items.map((item) => (item.id === id ? write.endpoint : item));
  }
  return {
    version: nextVersion(snapshot),
    observedAt: new Date(at).toISOString(),
    items,
    writes: { ...snapshot.writes, [id]: at },
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
  const id = write.type === 'deleted' ? write.id : write.endpoint.id;
  const event = eventOf(
    write,
    stored?.items.find((item) => item.id === id),
    observedAt,
  );
  let version = nextVersion(stored);
  if (stored !== undefined) {
    const next = applied(stored, write, at);
    version = next.version;
    await deps.snapshots.set('endpoints', digest, next);
  }
  if (event !== undefined)
    deps.feed.publish(KINDS.endpoints.topic, digest, { type: 'changes', version, events: [event] });
}
