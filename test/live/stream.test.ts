// One subscriber's stream in isolation (no network): where the current list and the changes meet,
// nothing is lost or sent twice; a stalled subscriber is ended once more than its cap of bytes waits
// (test/live/slow-subscribers.test.ts drives the same over real sockets).
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors';
import { eventBytes, type SubscriberLink } from '../../src/live/delivery/events/backlog';
import type { Channel } from '../../src/live/delivery/events/channel';
import { currentEvents } from '../../src/live/delivery/events/current-events';
import { EventStream, type StreamItem } from '../../src/live/delivery/events/event-stream';
import { KINDS } from '../../src/live/kinds/kinds';
import type { TunnelEventPayload } from '../../src/live/kinds/tunnel-events';
import { PubSubFeed } from '../../src/live/observation/feed';
import { SharedSnapshots } from '../../src/live/observation/snapshots/shared-snapshots';
import type { Snapshot } from '../../src/live/observation/snapshots/snapshot';
import { MemorySnapshotStore } from '../../src/shared-state';
import type { Tunnel } from '../../src/upstream';

const DIGEST = 'digest-of-a-credential';
const CAP = 1024 * 1024;
const tunnel = (id: string): Tunnel => ({
  id,
  startedAt: '2025-09-01T08:00:00Z',
  region: 'eu',
  tunnelSession: { id: 'ts_1', uri: 'https://api.ngrok.com/tunnel_sessions/ts_1' },
});
const snapshot = (version: number, ids: string[]): Snapshot => ({
  version,
  observedAt: `2025-09-01T08:00:0${version}Z`,
  items: ids.map(tunnel),
});
const event = (kind: 'ONLINE' | 'OFFLINE', id: string, version: number): TunnelEventPayload => ({
  kind,
  tunnelId: id,
  tunnel: tunnel(id),
  observedAt: `2025-09-01T08:00:0${version}Z`,
});
const label = (item: StreamItem) =>
  item instanceof GatewayError ? item.code : `${item.kind}:${(item as TunnelEventPayload).tunnelId}`;
const newStore = () => new SharedSnapshots(new MemorySnapshotStore(), 60_000, 1 << 20);
/** Stores the tunnels `ids` as the account's next snapshot; resolves the version the store gave it. */
async function put(store: SharedSnapshots, ids: string[]): Promise<number> {
  const { items, observedAt } = snapshot(1, ids);
  const next = await store.swap('tunnels', DIGEST, await store.get('tunnels', DIGEST), { observedAt, items });
  if (next === undefined) throw new Error('no snapshot stored');
  return next.version;
}
/** The account's tunnel events as a stream reads them. */
const channelOf = (feed: PubSubFeed, store: SharedSnapshots): Channel => ({
  listen: (listener) => feed.listen('tunnelEvents', DIGEST, listener),
  listening: () => feed.listening('tunnelEvents', DIGEST),
  current: async () => {
    const s = await store.get('tunnels', DIGEST);
    return s && { version: s.version, events: currentEvents(KINDS.tunnels, s) };
  },
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

async function take(stream: EventStream, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const r = await stream.next();
    if (r.done) break;
    out.push(label(r.value));
  }
  return out;
}

describe('a subscriber stream', () => {
  it('includeCurrent: changes already in the snapshot it starts from are not sent again', async () => {
    const feed = new PubSubFeed();
    const store = newStore();
    await put(store, ['tn_a']);
    const stream = new EventStream({
      channel: channelOf(feed, store),
      includeCurrent: true,
      onEnd: () => {},
      capBytes: CAP,
    });
    // Observation 2 lands after the stream listens and before it reads the snapshot.
    const second = await put(store, ['tn_b', 'tn_a']);
    feed.publish('tunnelEvents', DIGEST, {
      type: 'changes',
      version: second,
      events: [event('ONLINE', 'tn_b', 2)],
    });
    await tick();
    expect(await take(stream, 2)).toEqual(['ONLINE:tn_b', 'ONLINE:tn_a']);
    feed.publish('tunnelEvents', DIGEST, {
      type: 'changes',
      version: second + 1,
      events: [event('OFFLINE', 'tn_a', 3)],
    });
    expect(await take(stream, 1)).toEqual(['OFFLINE:tn_a']);
    await stream.return();
  });

  it('includeCurrent before the first observation: waits for it, then lists it', async () => {
    const feed = new PubSubFeed();
    const store = newStore();
    const stream = new EventStream({
      channel: channelOf(feed, store),
      includeCurrent: true,
      onEnd: () => {},
      capBytes: CAP,
    });
    const first = take(stream, 2);
    await tick();
    const baseline = await put(store, ['tn_b', 'tn_a']);
    feed.publish('tunnelEvents', DIGEST, { type: 'baseline', version: baseline });
    expect(await first).toEqual(['ONLINE:tn_b', 'ONLINE:tn_a']);
    await stream.return();
  });

  /** A stream with no reader of `capBytes`, over a transport holding `backlog` bytes unsent. */
  function stalled(capBytes: number, backlog = 0) {
    const feed = new PubSubFeed();
    const seen = { ended: 0, tooSlow: 0, held: [] as number[], dropped: [] as string[] };
    const link: SubscriberLink = {
      transport: 'http',
      backlogBytes: () => backlog,
      drop: (reason) => seen.dropped.push(reason),
    };
    const stream = new EventStream({
      channel: channelOf(feed, newStore()),
      includeCurrent: false,
      capBytes,
      link,
      onEnd: () => {
        seen.ended += 1;
      },
      onTooSlow: () => {
        seen.tooSlow += 1;
      },
      onHeld: (bytes) => seen.held.push(bytes),
    });
    return { feed, stream, seen };
  }

  it('a subscriber that stops reading is dropped with RATE_LIMITED by the message that would pass its cap', async () => {
    const batch = Array.from({ length: 10 }, (_, i) => event('ONLINE', `tn_${i}`, 2));
    const size = batch.reduce((sum, e) => sum + eventBytes(e), 0);
    // Room for exactly three batches, with the transport's 100 bytes.
    const { feed, stream, seen } = stalled(3 * size + 100, 100);
    for (let v = 2; v <= 4; v += 1)
      feed.publish('tunnelEvents', DIGEST, { type: 'changes', version: v, events: batch });
    await tick();
    expect(seen.held).toEqual([size + 100, 2 * size + 100, 3 * size + 100]);
    expect(seen.ended).toBe(0);
    feed.publish('tunnelEvents', DIGEST, { type: 'changes', version: 5, events: batch });
    await tick();
    expect(seen).toMatchObject({ ended: 1, tooSlow: 1 });
    expect(seen.dropped).toEqual([expect.stringMatching(/^Read too slowly: over \d+ bytes of events/)]);
    expect(stream.heldBytes()).toBe(0);
    // What was queued is dropped: the error is the last item.
    expect(await take(stream, 2)).toEqual(['RATE_LIMITED']);
    expect((await stream.next()).done).toBe(true);
  });

  it('events read leave the count: a subscriber that keeps up is never dropped', async () => {
    const batch = Array.from({ length: 10 }, (_, i) => event('ONLINE', `tn_${i}`, 2));
    const size = batch.reduce((sum, e) => sum + eventBytes(e), 0);
    const { feed, stream, seen } = stalled(2 * size);
    for (let v = 2; v <= 21; v += 1) {
      feed.publish('tunnelEvents', DIGEST, { type: 'changes', version: v, events: batch });
      await tick();
      expect(await take(stream, 10)).toHaveLength(10);
    }
    expect(seen).toMatchObject({ ended: 0, tooSlow: 0 });
    expect(Math.max(...seen.held)).toBe(size);
    await stream.return();
  });

  it('one message larger than the cap reaches a subscriber with nothing queued, whole', async () => {
    const batch = Array.from({ length: 50 }, (_, i) => event('OFFLINE', `tn_${i}`, 2));
    const { feed, stream, seen } = stalled(1024);
    feed.publish('tunnelEvents', DIGEST, { type: 'changes', version: 2, events: batch });
    await tick();
    expect(seen.tooSlow).toBe(0);
    expect(await take(stream, 50)).toEqual(batch.map((e) => `OFFLINE:${e.tunnelId}`));
    await stream.return();
  });
});
