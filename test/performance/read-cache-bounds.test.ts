// The read cache's memory stays bounded however many credentials use it.
import { describe, expect, it } from 'vitest';
import { MemoryCacheStore } from '../../src/shared-state';
import { ReadCache } from '../../src/upstream/read-cache';

describe('read cache memory', () => {
  it('keeps maxEntries entries and no trace of credentials whose reads are done', async () => {
    const store = new MemoryCacheStore({ ttlMs: 60_000, maxEntries: 10 });
    const cache = new ReadCache(store);
    for (let i = 0; i < 1000; i += 1) {
      await cache.read(
        `cred${i}`,
        '/tunnels?limit=21',
        async () => i,
        () => [[`/tunnels/tn_${i}`, i]],
      );
    }
    expect(store.size).toBe(10);
    expect(cache.credentials).toBe(0);
    // The last five credentials' answers are still there; a write of each makes them unreachable.
    expect(await cache.read('cred999', '/tunnels/tn_999', async () => -1)).toBe(999);
    for (let i = 995; i < 1000; i += 1) await cache.invalidate(`cred${i}`);
    expect(await cache.read('cred999', '/tunnels/tn_999', async () => -1)).toBe(-1);
  });

  it('forgets a credential whose only read failed', async () => {
    const store = new MemoryCacheStore({ ttlMs: 60_000, maxEntries: 10 });
    const cache = new ReadCache(store);
    await expect(cache.read('cred', '/x', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(store.size).toBe(0);
    expect(cache.credentials).toBe(0);
    expect(await cache.read('cred', '/x', async () => 2)).toBe(2);
    expect(await cache.read('cred', '/x', async () => 3)).toBe(2);
  });
});
