// The gateway as `npm start` runs it (its own process, 128 MB heap, default
// LIVE_MAX_SUBSCRIBER_BUFFER_BYTES of 4 MiB) under churn of 16 KB tunnel events, with an SSE
// subscriber that stops reading (nothing else would ever drop it): it is dropped, the heap stays
// flat, and the readers of the same account get every event. Before, such subscribers made the heap grow with every event until
// the process died with "JavaScript heap out of memory".
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox';
import { bundleMain, type GatewayProcess, startProcess } from '../operability/process';
import { largeChurn } from './large-churn';
import { QUERY, replay, stalledSse, wsSubscriber } from './slow-clients';
import { KEY, sse, until } from './support';

const MiB = 1024 * 1024;
/** LIVE_MAX_SUBSCRIBER_BUFFER_BYTES's default. */
const CAP = 4 * MiB;

/** A sample of the gateway's /metrics: the series of `name` summed over those matching `labels`. */
async function scrape(base: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const series = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) sum += Number(match[3]);
  }
  return sum;
}

describe('memory of a gateway with subscribers that stop reading', () => {
  let sandbox: Sandbox;
  let gateway: GatewayProcess;
  let remove = () => {};

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: { tunnels: [] } } });
    const bundle = await bundleMain();
    remove = bundle.remove;
    gateway = await startProcess(bundle.main, {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      NGROK_API_URL: sandbox.url,
      LIVE_POLL_INTERVAL_MS: '200',
      LIVE_POLL_BUDGET_PER_MIN: '6000',
      UPSTREAM_RATE_LIMIT_PER_MIN: '0',
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await sandbox?.close();
    remove();
  });

  it('stays flat while the churn sends 16 times the cap; the readers of the account miss nothing', async () => {
    const base = gateway.base;
    const wsUrl = `${base.replace(/^http/, 'ws')}/graphql`;
    const reader = await sse(`${base}/graphql`, KEY, {}, QUERY);
    const wsReader = await wsSubscriber(wsUrl);
    const stalled = await stalledSse(base);
    await until(async () => (await scrape(base, 'gateway_live_subscriptions')) === 3, 'three subscriptions');

    const heap = () => scrape(base, 'nodejs_heap_size_used_bytes');
    const baseline = await heap();
    let peak = baseline;
    let readerBytes = 0;
    let counted = 0;
    const churn = largeChurn(sandbox, KEY, { base: 40, everyMs: 10 });
    try {
      // 64 MiB of events through the reader, the heap sampled every quarter second meanwhile.
      while (readerBytes < 16 * CAP) {
        for (; counted < reader.results.length; counted += 1) {
          readerBytes += JSON.stringify(reader.results[counted]).length;
        }
        peak = Math.max(peak, await heap());
        expect(gateway.exitCode(), gateway.output()).toBeUndefined();
        expect(reader.ended).toBeUndefined();
        await sleep(250);
      }
    } finally {
      churn.stop();
    }

    expect(await scrape(base, 'gateway_live_subscribers_dropped_total', { transport: 'http' })).toBe(1);
    expect(await scrape(base, 'gateway_live_subscribers_dropped_total', { transport: 'websocket' })).toBe(0);
    expect(await scrape(base, 'gateway_live_subscriber_held_bytes_peak')).toBeLessThanOrEqual(CAP);
    // Held for the subscribers: at most the cap. Generous for garbage not yet collected;
    // with no bound the same run grows the heap by about 75 MB.
    const figures = `heap ${(baseline / MiB).toFixed(1)} MB, at most ${(peak / MiB).toFixed(1)} MB over ${(readerBytes / MiB).toFixed(1)} MiB of events`;
    expect(peak - baseline, figures).toBeLessThan(48 * MiB);
    // Both readers got every event, the same ones, in order, up to the account as it is now.
    const online = (sandbox.account(KEY).tunnels ?? []).map((t) => t.id).sort();
    await until(() => JSON.stringify(replay(reader.seen())) === JSON.stringify(online), 'the last state');
    await until(() => wsReader.results.length >= reader.results.length, 'the graphql-ws reader');
    expect(wsReader.seen()).toEqual(reader.seen());
    stalled.socket.destroy();
    for (const s of [reader, wsReader]) s.close();
  }, 300_000);
});
