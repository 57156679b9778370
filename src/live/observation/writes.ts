// A write through the gateway, announced at once: the endpoint's event is published to every
// subscriber of the account (on every replica, through the feed) and folded into the stored
// snapshot, marked with the version it was applied to, so the next poll neither announces it again
// nor undoes it with a walk that began before the write (snapshots/snapshot.ts settleWalk). Before the
// account's first walk the write is kept all the same (a snapshot of writes only), so the first
// walk settles against it rather than announcing it a second time. The live side (live.ts)
// holds one WriteAnnouncements; the context hands it every endpoint write of its credential.
import { type Logger, silentLogger } from '../../log';
import { ENDPOINT } from '../../resources';
import type { Endpoint, UpstreamKey } from '../../upstream';
import { type EndpointEventPayload, type EndpointWrite, endpointEvent } from '../kinds/endpoint-events';
import { KINDS, liveKindOf } from '../kinds/kinds';

const ENDPOINTS = liveKindOf(ENDPOINT);

import type { LiveFeed } from './feed';
import type { SharedSnapshots } from './snapshots/shared-snapshots';
import { isObserved, type Snapshot, type Unversioned } from './snapshots/snapshot';

/** Writers racing one write's storing: far more than any account makes between two reads. */
const MAX_SWAPS = 20;

/**
 * The event a write makes against what subscribers last saw (`listed`, in an observation or not),
 * or none. Without an observation a write says itself what it was: a create is ONLINE, an update UPDATED.
 */
function eventOf(
  write: EndpointWrite,
  stored: Snapshot<Endpoint> | undefined,
  listed: Endpoint | undefined,
  at: string,
): EndpointEventPayload | undefined {
  if (write.type === 'deleted') return listed ? endpointEvent('OFFLINE', listed, at) : undefined;
  // A poll that listed the write before its answer came back has announced it already.
  if (listed !== undefined && listed.updatedAt === write.endpoint.updatedAt) return undefined;
  if (listed !== undefined) return endpointEvent('UPDATED', write.endpoint, at);
  const kind = isObserved(stored) || write.type === 'created' ? 'ONLINE' : 'UPDATED';
  return endpointEvent(kind, write.endpoint, at);
}

/** The id a write is about. */
const idOf = (write: EndpointWrite): string => (write.type === 'deleted' ? write.id : write.endpoint.id);

/** The items with the write applied: gone, changed in place, or new and first (the newest). */
function itemsAfter(items: readonly Endpoint[], write: EndpointWrite, listed: boolean): Endpoint[] {
  const id = idOf(write);
  if (write.type === 'deleted') return items.filter((item) => item.id !== id);
  return listed ? items.map((item) => (item.id === id ? write.endpoint : item)) : [write.endpoint, ...items];
}

/** `stored` (or nothing yet) with the write applied and marked with the version it was applied to. */
function applied(
  stored: Snapshot<Endpoint> | undefined,
  write: EndpointWrite,
  listed: boolean,
  observedAt: string,
): Unversioned<Endpoint> {
  return {
    observedAt,
    items: itemsAfter(stored?.items ?? [], write, listed),
    writes: { ...stored?.writes, [idOf(write)]: stored?.version ?? 0 },
    ...(isObserved(stored) ? {} : { observed: false }),
  };
}

async function announceEndpointWrite(
  deps: { readonly feed: LiveFeed; readonly snapshots: SharedSnapshots; readonly now?: () => number },
  digest: string,
  write: EndpointWrite,
): Promise<void> {
  const observedAt = new Date((deps.now ?? Date.now)()).toISOString();
  for (let attempt = 0; attempt < MAX_SWAPS; attempt += 1) {
    const stored = (await deps.snapshots.get(ENDPOINTS, digest)) as Snapshot<Endpoint> | undefined;
    const listed = stored?.items.find((item) => item.id === idOf(write));
    const event = eventOf(write, stored, listed, observedAt);
    const next = await deps.snapshots.swap(
      ENDPOINTS,
      digest,
      stored,
      applied(stored, write, listed !== undefined, observedAt),
    );
    if (next === undefined) continue;
    if (event !== undefined)
      deps.feed.publish(KINDS.endpoints.topic, digest, {
        type: 'changes',
        version: next.version,
        observedAt,
        events: [event],
      });
    return;
  }
  throw new Error('the endpoints snapshot kept changing while a write was stored');
}

export interface WriteAnnouncementDeps {
  readonly feed: LiveFeed;
  readonly snapshots: SharedSnapshots;
  readonly logger?: Logger;
}

/** Writes through the gateway, announced to the account's endpoint subscribers on every replica. */
export class WriteAnnouncements {
  private readonly logger: Logger;

  constructor(private readonly deps: WriteAnnouncementDeps) {
    this.logger = deps.logger ?? silentLogger();
  }

  /**
   * Announces `write` now; the next poll does not announce it again. A failing store or feed costs
   * the write nothing (it is logged).
   */
  async endpointWritten(key: UpstreamKey, write: EndpointWrite): Promise<void> {
    const { digest } = key;
    await announceEndpointWrite(this.deps, digest, write).catch(() => {
      this.logger.warn({ credential: digest.slice(0, 8) }, 'live: a write could not be announced');
    });
  }
}
