// Gateway replicas for the cluster tests: the bundled src/main.ts (test/operability/process.ts) run
// as separate processes against one stand-in and one redis-server, with fast live settings, and
// read through their own /metrics.
import type { Sandbox } from '../../src/sandbox';
import { until } from '../live/support';
import { type GatewayProcess, startProcess } from '../operability/process';

export interface Replica {
  readonly name: string;
  readonly process: GatewayProcess;
  readonly url: string;
  readonly wsUrl: string;
  /** A sample of its /metrics (summed over the series matching `labels`). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  kill(): void;
}

/** A lease's time to live, below. */
const LEASE_TTL_MS = 1500;

/** Poll every 200 ms; a lease of 1.5 s (renewed every 500 ms, asked for every 200 ms). */
const LIVE_ENV = {
  LIVE_POLL_INTERVAL_MS: '200',
  LIVE_POLL_BUDGET_PER_MIN: '6000',
  LIVE_LEASE_TTL_MS: String(LEASE_TTL_MS),
  LIVE_IDLE_MS: '500',
  // The gateway's own upstream budget is not what these tests are about.
  UPSTREAM_RATE_LIMIT_PER_MIN: '0',
};

export async function startReplica(
  main: string,
  name: string,
  options: {
    sandbox: Sandbox;
    redisUrl: string;
    keyPrefix: string;
    /** Where its upstream calls go instead of the stand-in (a relay in front of it). */
    upstreamUrl?: string;
    /** More settings (or NODE_OPTIONS). */
    env?: Record<string, string>;
  },
): Promise<Replica> {
  const gateway = await startProcess(main, {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    NGROK_API_URL: options.upstreamUrl ?? options.sandbox.url,
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: options.keyPrefix,
    ...LIVE_ENV,
    ...options.env,
  });
  // Until Redis answers a replica keeps its state to itself: the tests start once all are connected.
  await until(() => gateway.output().includes('Redis connected'), `${name} to reach Redis`, 20_000);
  const base = gateway.base;
  return {
    name,
    process: gateway,
    url: `${base}/graphql`,
    wsUrl: `${base.replace(/^http/, 'ws')}/graphql`,
    metric: async (metric, labels = {}) => {
      const text = await (await fetch(`${base}/metrics`)).text();
      let sum = 0;
      for (const line of text.split('\n')) {
        const match = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
        if (match?.[1] !== metric) continue;
        const series = match[2] ?? '';
        if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) sum += Number(match[3]);
      }
      return sum;
    },
    kill: () => gateway.child.kill('SIGKILL'),
  };
}

/** The replicas polling the account now, by their gateway_live_pollers gauge. */
export async function polling(replicas: readonly Replica[]): Promise<string[]> {
  const gauges = await Promise.all(replicas.map((r) => r.metric('gateway_live_pollers')));
  return replicas.filter((_, i) => (gauges[i] ?? 0) > 0).map((r) => r.name);
}

/**
 * The one replica polling once Redis is back for every replica and the lease has settled. A replica
 * that reconnects drops the lease it held in its own process at its next renewal, so for a moment
 * the one poller may be a replica about to stop: the answer is the replica that polled alone for a
 * whole lease's length.
 */
export async function settledPoller(replicas: readonly Replica[], timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(0, deadline - Date.now());
  await until(
    async () =>
      (await Promise.all(replicas.map((r) => r.metric('gateway_redis_up')))).every((up) => up === 1),
    'every replica to reach Redis again',
    remaining(),
  );
  let alone: { name: string; since: number } | undefined;
  await until(
    async () => {
      const now = await polling(replicas);
      const sole = now.length === 1 ? now[0] : undefined;
      if (sole !== alone?.name) alone = sole === undefined ? undefined : { name: sole, since: Date.now() };
      return alone !== undefined && Date.now() - alone.since >= LEASE_TTL_MS;
    },
    'one replica to poll alone for a lease',
    remaining(),
  );
  return alone?.name ?? '';
}
