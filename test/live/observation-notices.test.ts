// Observation's notices in isolation (no network): a listener of several kinds (as a live query
// will be) hears each new observation of each kind it names, with that kind's version and time,
// nothing of the kinds it does not name, and the observation's items through `latest`.
import { describe, expect, it } from 'vitest';
import type { LiveKind } from '../../src/live/kinds/kinds';
import type { FeedMessage } from '../../src/live/observation/feed';
import { PubSubFeed } from '../../src/live/observation/feed';
import { Observations } from '../../src/live/observation/observations';
import { SharedSnapshots } from '../../src/live/observation/snapshots/shared-snapshots';
import { MemorySnapshotStore } from '../../src/shared-state';

const DIGEST = 'digest-of-a-credential';
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('observation notices', () => {
  it('a listener of two kinds receives each kind its version notices, and no other kind', async () => {
    const feed = new PubSubFeed();
    const snapshots = new SharedSnapshots(new MemorySnapshotStore(), 60_000, 1 << 20);
    const observations = new Observations(feed, snapshots);
    const heard: { kind: LiveKind; type: FeedMessage['type']; version?: number; observedAt?: string }[] = [];
    const detach = observations.listen(DIGEST, ['tunnels', 'endpoints'], (kind, message) => {
      heard.push(
        message.type === 'ended'
          ? { kind, type: message.type }
          : { kind, type: message.type, version: message.version, observedAt: message.observedAt },
      );
    });
    await observations.listening(DIGEST, ['tunnels', 'endpoints']);
    feed.publish('tunnelEvents', DIGEST, {
      type: 'baseline',
      version: 1,
      observedAt: '2025-09-01T08:00:01Z',
    });
    feed.publish('endpointEvents', DIGEST, {
      type: 'baseline',
      version: 1,
      observedAt: '2025-09-01T08:00:02Z',
    });
    feed.publish('tunnelSessionEvents', DIGEST, { type: 'baseline', version: 7 });
    feed.publish('endpointEvents', DIGEST, {
      type: 'changes',
      version: 2,
      observedAt: '2025-09-01T08:00:03Z',
      events: [],
    });
    feed.publish('tunnelEvents', 'another-account', { type: 'baseline', version: 9 });
    feed.publish('tunnelEvents', DIGEST, { type: 'ended', code: 'FORBIDDEN', message: 'refused' });
    await tick();
    await tick();
    // In order within a kind (each kind is its own topic: no order between kinds).
    const of = (kind: LiveKind) => heard.filter((notice) => notice.kind === kind);
    expect(of('tunnels')).toEqual([
      { kind: 'tunnels', type: 'baseline', version: 1, observedAt: '2025-09-01T08:00:01Z' },
      { kind: 'tunnels', type: 'ended' },
    ]);
    expect(of('endpoints')).toEqual([
      { kind: 'endpoints', type: 'baseline', version: 1, observedAt: '2025-09-01T08:00:02Z' },
      { kind: 'endpoints', type: 'changes', version: 2, observedAt: '2025-09-01T08:00:03Z' },
    ]);
    expect(heard).toHaveLength(4);
    detach();
    feed.publish('tunnelEvents', DIGEST, { type: 'baseline', version: 3 });
    await tick();
    expect(heard).toHaveLength(4);
  });

  it("gives the observation's items at the version a notice names", async () => {
    const feed = new PubSubFeed();
    const snapshots = new SharedSnapshots(new MemorySnapshotStore(), 60_000, 1 << 20);
    const observations = new Observations(feed, snapshots);
    expect(await observations.latest('tunnels', DIGEST)).toBeUndefined();
    const stored = await snapshots.swap('tunnels', DIGEST, undefined, {
      observedAt: '2025-09-01T08:00:01Z',
      items: [{ id: 'tn_b' }, { id: 'tn_a' }],
    });
    const latest = await observations.latest('tunnels', DIGEST);
    expect(latest?.version).toBe(stored?.version);
    expect(latest?.items.map((item) => item.id)).toEqual(['tn_b', 'tn_a']);
    expect(await observations.latest('endpoints', DIGEST)).toBeUndefined();
  });
});
