// The live row of the benchmark: N SSE subscribers of tunnelEvents on one account while its
// tunnels come and go. What it shows: upstream calls per minute stay one poller's (independent of
// N), and the gateway's CPU time per event delivered.

import { MINUTE_MS } from '../../time';
import { openEventStream } from '../harness/event-stream';
import { cpuMs, type GatewayProcess, type StandIn, startGateway } from '../processes/processes';
import type { LiveRow } from '../report/report';

const SUBSCRIPTION =
  '{"query":"subscription { tunnelEvents { kind tunnelId tunnel { id publicUrl region } } }"}';
const POLL_INTERVAL_MS = 1000;
const CHURN_MS = 250;

/** Opens one SSE subscription; counts its events until `signal` aborts. */
async function subscribe(url: string, key: string, signal: AbortSignal, counts: number[], index: number) {
  const reader = await openEventStream(url, key, SUBSCRIPTION, signal);
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      counts[index] = (counts[index] ?? 0) + (value.match(/^event: next$/gm)?.length ?? 0);
    }
  })().catch(() => {});
}

export async function measureLive(options: {
  standIn: StandIn;
  entry: string;
  key: string;
  subscribers: number;
  seconds: number;
  nodeArgs: readonly string[];
}): Promise<LiveRow> {
  const { standIn, key, subscribers, seconds } = options;
  let gateway: GatewayProcess | undefined;
  const abort = new AbortController();
  try {
    gateway = await startGateway(
      options.entry,
      {
        NGROK_API_URL: standIn.url,
        NODE_ENV: 'production',
        LIVE_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
        LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: String(Math.max(100, subscribers)),
      },
      { nodeArgs: options.nodeArgs },
    );
    const counts: number[] = Array.from({ length: subscribers }, () => 0);
    await Promise.all(
      Array.from({ length: subscribers }, (_, i) =>
        subscribe(gateway?.url ?? '', key, abort.signal, counts, i),
      ),
    );
    // One interval for the poller's baseline walk, then measure.
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS * 2));
    await standIn.resetCalls();
    const cpuBefore = cpuMs(gateway.pid);
    const before = [...counts];
    await standIn.churn(key, CHURN_MS);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    await standIn.churn(key, 0);
    // The last changes reach every subscriber within a poll.
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS * 2));
    const cpu = cpuMs(gateway.pid) - cpuBefore;
    const calls = (await standIn.calls()).byKey[key] ?? 0;
    const received = counts.map((c, i) => c - (before[i] ?? 0));
    const events = received.reduce((a, b) => a + b, 0);
    const first = received[0] ?? 0;
    return {
      subscribers,
      seconds,
      pollIntervalMs: POLL_INTERVAL_MS,
      events,
      callsPerMin: calls / ((seconds * 1000 + POLL_INTERVAL_MS * 2) / MINUTE_MS),
      cpuMsPerEvent: events > 0 ? cpu / events : Number.NaN,
      complete: received.filter((c) => c === first && c > 0).length,
    };
  } finally {
    abort.abort();
    await gateway?.stop();
  }
}
