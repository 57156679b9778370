// The replicas row of the benchmark: three gateways on one key behind a round-robin, loaded with
// distinct reads for a few seconds, once with per-process state and once sharing a Redis
// (REDIS_URL). What it shows: the upstream calls the three send within one rolling minute — up to
// three budgets without Redis, one budget (UPSTREAM_RATE_LIMIT_PER_MIN) with it.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort, type GatewayProcess, type StandIn, startGateway } from '../processes/processes';
import type { ReplicasRow } from '../report/report';

const REDIS_SERVER = '/usr/bin/redis-server';
const REPLICAS = 3;
const LIMIT_PER_MIN = 120;
const WORKERS = 8;

/** A throwaway redis-server on a loopback port, answering PING; undefined without the binary. */
export async function startRedis(): Promise<{ url: string; child: ChildProcess } | undefined> {
  if (!existsSync(REDIS_SERVER)) return undefined;
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    for (let tries = 0; tries < 100; tries += 1) {
      const up = await probe
        .connect()
        .then(() => probe.ping())
        .then(
          () => true,
          () => false,
        );
      if (up) return { url, child };
      probe.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    throw new Error('redis-server did not answer');
  } finally {
    probe.disconnect();
  }
}

/** Round-robin reads of distinct pages (so neither coalescing nor a cache hides a call) for `seconds`. */
async function roundRobin(urls: readonly string[], key: string, seconds: number) {
  const until = performance.now() + seconds * 1000;
  let sent = 0;
  let refused = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const n = sent;
      sent += 1;
      const response = await fetch(urls[n % urls.length] ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: `{ tunnels(first: ${1 + (n % 99)}) { nodes { id } } }` }),
      });
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      if (body.errors?.some((e) => e.extensions?.code === 'RATE_LIMITED')) refused += 1;
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return { sent, refused };
}

async function measureOnce(
  options: { standIn: StandIn; entry: string; key: string; seconds: number; nodeArgs: readonly string[] },
  redisUrl: string | undefined,
) {
  const env = {
    NGROK_API_URL: options.standIn.url,
    NODE_ENV: 'production',
    UPSTREAM_RATE_LIMIT_PER_MIN: String(LIMIT_PER_MIN),
    ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_FALLBACK_REPLICAS: String(REPLICAS) } : {}),
  };
  const gateways: GatewayProcess[] = [];
  try {
    for (let i = 0; i < REPLICAS; i += 1)
      gateways.push(await startGateway(options.entry, env, { nodeArgs: options.nodeArgs }));
    await options.standIn.resetCalls();
    const load = await roundRobin(
      gateways.map((g) => g.url),
      options.key,
      options.seconds,
    );
    const calls = (await options.standIn.calls()).byKey[options.key] ?? 0;
    return { ...load, calls };
  } finally {
    for (const g of gateways) await g.stop();
  }
}

export async function measureReplicas(options: {
  standIn: StandIn;
  entry: string;
  key: string;
  seconds: number;
  nodeArgs: readonly string[];
}): Promise<ReplicasRow | undefined> {
  const redis = await startRedis();
  if (!redis) return undefined;
  try {
    const alone = await measureOnce(options, undefined);
    const shared = await measureOnce(options, redis.url);
    return {
      replicas: REPLICAS,
      limitPerMin: LIMIT_PER_MIN,
      seconds: options.seconds,
      withoutRedis: alone,
      withRedis: shared,
    };
  } finally {
    redis.child.kill('SIGKILL');
  }
}
