// Unique operation names by the thousand, and huge unique documents, sent with no credential to the
// gateway as `npm start` runs it (its own process, 128 MB heap): it stays up, /metrics stays small,
// and its memory stays bounded. Before, 5,000 names made /metrics 10.8 MB and the next scrape ran
// the process out of memory; 450 unique 90 kB documents filled the heap through the parse cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleMain, type GatewayProcess, startProcess } from '../operability/process';

/** Sends `count` jobs, `concurrency` at a time. */
async function pool(count: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

describe('a flood of unique operation names', () => {
  let gateway: GatewayProcess;
  let remove = () => {};

  beforeAll(async () => {
    const bundle = await bundleMain();
    remove = bundle.remove;
    // The embedded stand-in, as a bare `npm start`; batches of 100 to send 5,000 operations quickly.
    gateway = await startProcess(bundle.main, { NODE_ENV: 'development', MAX_BATCH: '100' });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    remove();
  });

  const post = async (body: unknown) => {
    const response = await fetch(`${gateway.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  };

  it('stays up with /metrics under 1 MB and its memory bounded', async () => {
    // 5,000 unique 64-character names (the flood that made /metrics 10.8 MB; 100 times the 50 names given a
    // series), in 50 batches of 100 operations.
    await pool(50, 4, async (b) => {
      const batch = Array.from({ length: 100 }, (_, i) => ({
        query: `query N${String(b * 100 + i).padStart(6, '0')}${'x'.repeat(57)} { __typename }`,
      }));
      expect(await post(batch)).toBe(200);
    });
    // 600 unique documents of about 95 kB, each its own operation name.
    await pool(600, 4, async (i) => {
      const name = `Big${String(i).padStart(4, '0')}${'y'.repeat(95_000)}`;
      expect(await post({ query: `query ${name} { __typename }` })).toBe(200);
    });

    expect(gateway.exitCode(), gateway.output()).toBeUndefined();
    const metrics = await fetch(`${gateway.base}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(Buffer.byteLength(text)).toBeLessThan(1_000_000);
    const heapUsed = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]);
    expect(heapUsed).toBeLessThan(110 * 1024 * 1024);
    // Generous: the heap is capped at 128 MB; code, buffers and the stand-in come on top.
    expect(gateway.rss()).toBeLessThan(400 * 1024 * 1024);
    // And it still answers real work.
    const answer = await fetch(`${gateway.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ tunnels(first: 1) { nodes { id } } }' }),
    });
    expect(
      ((await answer.json()) as { data: { tunnels: { nodes: unknown[] } } }).data.tunnels.nodes,
    ).toHaveLength(1);
  }, 120_000);
});
