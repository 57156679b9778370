// One subscriber's stream in isolation (no network): where the current list and the changes meet,
// nothing is lost or sent twice; a stalled subscriber is ended instead of holding events forever.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors';
import { PubSubFeed } from '../../src/live/feed';
import { MemorySnapshotStore, type Snapshot, type TunnelEventPayload } from '../../src/live/snapshot';
import { MAX_PENDING_EVENTS, type StreamItem, TunnelEventStream } from '../../src/live/stream';
import type { Tunnel } from '../../src/upstream';

const DIGEST = 'digest-of-a-credential';
const tunnel = (id: string): Tunnel => ({
  id,
  startedAt: '2025-09-01T08:00:00Z',
  region: 'eu',
  tunnelSession: { id: 'ts_1', uri: 'https://api.ngrok.com/tunnel_sessions/ts_1' },
});
const snapshot = (version: number, ids: string[]): Snapshot => ({
  version,
  observedAt: `2025-09-01T08:00:0${version}Z`,
  tunnels: ids.map(tunnel),
});
const event = (kind: 'ONLINE' | 'OFFLINE', id: string, version: number): TunnelEventPayload => ({
  kind,
  tunnelId: id,
  tunnel: tunnel(id),
  observedAt: `2025-09-01T08:00:0${version}Z`,
});
const label = (item: StreamItem) =>
  item instanceof GatewayError ? item.code : `${item.kind}:${item.tunnelId}`;
const tick = () => new Promise((resolve) => setImmediate(resolve));

async function take(stream: TunnelEventStream, n: number): Promise<string[]> {
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
    const store = new MemorySnapshotStore();
    await store.set(DIGEST, snapshot(1, ['tn_a']));
    const stream = new TunnelEventStream({
      feed,
      store,
      digest: DIGEST,
      includeCurrent: true,
      onEnd: () => {},
    });
    // Observation 2 lands after the stream listens and before it reads the snapshot.
    await store.set(DIGEST, snapshot(2, ['tn_b', 'tn_a']));
    feed.publish(DIGEST, { type: 'changes', version: 2, events: [event('ONLINE', 'tn_b', 2)] });
    await tick();
    expect(await take(stream, 2)).toEqual(['ONLINE:tn_b', 'ONLINE:tn_a']);
    feed.publish(DIGEST, { type: 'changes', version: 3, events: [event('OFFLINE', 'tn_a', 3)] });
    expect(await take(stream, 1)).toEqual(['OFFLINE:tn_a']);
    await stream.return();
  });

  it('includeCurrent before the first observation: waits for it, then lists it', async () => {
    const feed = new PubSubFeed();
    const store = new MemorySnapshotStore();
    const stream = new TunnelEventStream({
      feed,
      store,
      digest: DIGEST,
      includeCurrent: true,
      onEnd: () => {},
    });
    const first = take(stream, 2);
    await tick();
    await store.set(DIGEST, snapshot(1, ['tn_b', 'tn_a']));
    feed.publish(DIGEST, { type: 'baseline', version: 1 });
    expect(await first).toEqual(['ONLINE:tn_b', 'ONLINE:tn_a']);
    await stream.return();
  });

  it('a subscriber that stops reading is ended with RATE_LIMITED once it falls too far behind', async () => {
    const feed = new PubSubFeed();
    let ended = 0;
    const stream = new TunnelEventStream({
      feed,
      store: new MemorySnapshotStore(),
      digest: DIGEST,
      includeCurrent: false,
      onEnd: () => {
        ended += 1;
      },
    });
    const batch = Array.from({ length: 1000 }, (_, i) => event('ONLINE', `tn_${i}`, 2));
    for (let v = 2; v <= 2 + MAX_PENDING_EVENTS / 1000; v += 1) {
      feed.publish(DIGEST, { type: 'changes', version: v, events: batch });
    }
    await tick();
    expect(ended).toBe(1);
    expect(await take(stream, 2)).toEqual(['RATE_LIMITED']);
    expect((await stream.next()).done).toBe(true);
  });
});
