// Snapshots in Redis: `<prefix>snapshot:<digest>` holds the JSON and expires after its TTL.
import type { Redis } from 'ioredis';
import type { KeyNames } from '../redis/keys';
import type { SnapshotStore } from './snapshot-store';

export class RedisSnapshotStore implements SnapshotStore {
  constructor(
    private readonly client: Redis,
    private readonly keys: KeyNames,
  ) {}

  async get(digest: string): Promise<unknown> {
    const raw: unknown = await this.client.get(this.keys.snapshot(digest));
    if (raw !== null && typeof raw !== 'string') throw new Error('unexpected snapshot reply');
    return raw === null ? undefined : JSON.parse(raw);
  }

  async set(digest: string, snapshot: unknown, ttlMs: number): Promise<void> {
    await this.client.set(
      this.keys.snapshot(digest),
      JSON.stringify(snapshot ?? null),
      'PX',
      Math.ceil(ttlMs),
    );
  }
}
