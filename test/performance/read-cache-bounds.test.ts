// The read cache's memory stays bounded however many credentials use it.
import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/upstream/cache';

describe('read cache memory', () => {
  it('keeps maxEntries entries and no trace of credentials whose entries are gone', async () => {
    const cache = new ReadCache({ ttlMs: 60_000, maxEntries: 10 });
    for (let i = 0; i < 1000; i += 1) {
      await cache.read(
        `cred${i}`,
        '/tunnels?limit=21',
        async () => i,
        () => [[`/tunnels/tn_${i}`, i]],
      );
    }
    expect(cache.size).toBe(10);
    expect(cache.credentials).toBe(5);
    for (let i = 995; i < 1000; i += 1) cache.invalidate(`cred${i}`);
    expect(cache.size).toBe(0);
    expect(cache.credentials).toBe(0);
  });

  it('forgets a credential whose only read failed', async () => {
    const cache = new ReadCache({ ttlMs: 60_000, maxEntries: 10 });
    await expect(cache.read('cred', '/x', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(cache.size).toBe(0);
    expect(cache.credentials).toBe(0);
    expect(await cache.read('cred', '/x', async () => 2)).toBe(2);
    expect(await cache.read('cred', '/x', async () => 3)).toBe(2);
  });
});
