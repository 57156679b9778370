// Snapshots on a real redis-server move changes, not copies: a replica that holds a version of an
// account's 2,000-item snapshot and reads it again after a one-item change receives that change
// (the RESP reply counted byte for byte through a relay), not the list; one further behind than the
// changes Redis keeps reads it whole. Every write stays a compare-and-set ordered by Redis versions.
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedSnapshots } from '../../src/live/observation/snapshots/shared-snapshots';
import { keyNames } from '../../src/shared-state/redis/keys';
import { CHANGES_KEPT, RedisSnapshotStore } from '../../src/shared-state/snapshots/redis-snapshot-store';
import { RedisServer, redisTestsRun } from '../support/redis-server';

const DIGEST = 'digest-of-a-credential';
const KEYS = keyNames('ngw-changes:');
const TTL_MS = 60_000;
const MAX_BYTES = 32 * 1024 * 1024;

interface Item {
  readonly id: string;
  readonly url: string;
  readonly metadata: string;
}

/** 2,000 items, newest (highest id) first, as the upstream lists them; each about 260 bytes as JSON. */
const items: Item[] = Array.from({ length: 2_000 }, (_, i) => ({
  id: `ep_${String(2_000 - i).padStart(6, '0')}`,
  url: `https://e${2_000 - i}.example.com`,
  metadata: 'm'.repeat(200),
}));

/** A TCP relay to Redis counting the bytes Redis sends its client. */
async function countingRelay(
  target: string,
): Promise<{ url: string; toClient: number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const relay = { url: '', toClient: 0, close: () => new Promise<void>((r) => server.close(() => r())) };
  const server: Server = createServer((client) => {
    const remote = connect(Number(port), hostname);
    for (const s of [client, remote]) {
      sockets.add(s);
      s.on('error', () => undefined);
    }
    remote.on('data', (chunk: Buffer) => {
      relay.toClient += chunk.length;
    });
    client.pipe(remote);
    remote.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = relay.close;
  relay.close = async () => {
    for (const s of sockets) s.destroy();
    await close();
  };
  return relay;
}

/** The RESP bytes of a reply that is an array of bulk strings. */
const respOf = (parts: readonly string[]): number =>
  Buffer.byteLength(
    `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`,
  );

describe.runIf(redisTestsRun)('live snapshots on Redis: changes, not copies', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  async function setUp() {
    const redis = await RedisServer.start();
    cleanup.push(() => redis.stop());
    const relay = await countingRelay(redis.url);
    cleanup.push(() => relay.close());
    const clients = [new Redis(redis.url), new Redis(relay.url), new Redis(redis.url)];
    for (const c of clients) cleanup.push(() => void c.disconnect());
    const [writerClient, readerClient, admin] = clients as [Redis, Redis, Redis];
    const writer = new SharedSnapshots(new RedisSnapshotStore(writerClient, KEYS), TTL_MS, MAX_BYTES);
    const reader = new SharedSnapshots(new RedisSnapshotStore(readerClient, KEYS), TTL_MS, MAX_BYTES);
    return { relay, writer, reader, admin };
  }

  it('a one-item change of a 2,000-item snapshot reaches a reader as that item alone', async () => {
    const { relay, writer, reader, admin } = await setUp();
    const first = await writer.swap('endpoints', DIGEST, undefined, {
      observedAt: '2025-09-01T08:00:00Z',
      items,
    });
    if (first === undefined) throw new Error('the first swap failed');
    // The reader's first read is the whole snapshot (and loads the script into Redis's cache).
    const wholeBefore = relay.toClient;
    const whole = await reader.get('endpoints', DIGEST);
    expect(whole).toEqual(first);
    const wholeBytes = relay.toClient - wholeBefore;
    expect(wholeBytes).toBeGreaterThan(2_000 * 250);
    // Redis holds one field per item, beside the version and the head.
    expect(await admin.hlen(KEYS.liveSnapshot(`endpoints:${DIGEST}`))).toBe(2_002);

    const changed: Item = { ...(items[7] as Item), url: 'https://changed.example.com' };
    const next = await writer.swap('endpoints', DIGEST, first, {
      observedAt: '2025-09-01T08:00:05Z',
      items: items.map((item) => (item.id === changed.id ? changed : item)),
    });
    if (next === undefined) throw new Error('the second swap failed');
    // Unchanged items stay the writer's same objects: one copy in the process.
    expect(next.items[0]).toBe(first.items[0]);

    const before = relay.toClient;
    const read = await reader.get('endpoints', DIGEST);
    const moved = relay.toClient - before;
    expect(read).toEqual(next);
    expect(read?.items[7]).toEqual(changed);
    expect(read?.items[6]).toBe(whole?.items[6]);
    // Exactly one RESP reply: the version, the word, and the one change since the reader's version.
    const change = `${first.version} ${next.version} {"h":{"observedAt":"2025-09-01T08:00:05Z"},"u":[[${JSON.stringify(changed.id)},${JSON.stringify(changed)}]],"d":[]}`;
    expect(moved).toBe(respOf([String(next.version), 'changes', change]));
    expect(moved).toBeLessThan(500);
    expect(moved * 1_000).toBeLessThan(wholeBytes);
  });

  it('a reader behind several writes gets each in order; one behind the kept changes reads it whole', async () => {
    const { writer, reader } = await setUp();
    let stored = await writer.swap('endpoints', DIGEST, undefined, {
      observedAt: '2025-09-01T08:00:00Z',
      items,
    });
    await reader.get('endpoints', DIGEST);
    // A delete, a create (the newest id), and a change, as three versions.
    const created: Item = { id: 'ep_999999', url: 'https://new.example.com', metadata: '' };
    const steps: Item[][] = [
      items.slice(1),
      [created, ...items.slice(1)],
      [created, ...items.slice(1).map((i) => (i.id === 'ep_000001' ? { ...i, metadata: 'x' } : i))],
    ];
    for (const [n, list] of steps.entries()) {
      stored = await writer.swap('endpoints', DIGEST, stored, {
        observedAt: `2025-09-01T08:00:0${n + 1}Z`,
        items: list,
      });
    }
    const read = await reader.get('endpoints', DIGEST);
    expect(read).toEqual(stored);
    expect(read?.items.map((i) => i.id).slice(0, 2)).toEqual(['ep_999999', 'ep_001999']);
    expect(read?.items).toHaveLength(2_000);

    // A compare-and-set: a write onto a version no longer stored is refused.
    const late = await reader.swap(
      'endpoints',
      DIGEST,
      { ...(read as NonNullable<typeof read>), version: 1 },
      {
        observedAt: '2025-09-01T08:01:00Z',
        items: [],
      },
    );
    expect(late).toBeUndefined();

    // More writes than Redis keeps changes for: the reader, that far behind, gets it whole and equal.
    for (let n = 0; n < CHANGES_KEPT + 2; n += 1) {
      stored = await writer.swap('endpoints', DIGEST, stored, {
        observedAt: '2025-09-01T09:00:00Z',
        items: (stored?.items ?? []).map((i, k) => (k === 0 ? { ...i, metadata: `v${n}` } : i)),
      });
    }
    expect(await reader.get('endpoints', DIGEST)).toEqual(stored);
  });
});
