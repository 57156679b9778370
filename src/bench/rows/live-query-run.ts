// One run of the live-queries mode (rows/live-queries.ts): N live queries of the 20 shapes spread
// round-robin over 3 replicas sharing one redis-server, then the account changing for `seconds`;
// then, once one more walk of every list has been seen after the changes stopped, each client's
// patched data against a fresh plain answer of its query. The stand-in's calls for the account in
// the change phase, the replicas' poll calls and walks, evaluations and payloads, peak RSS each.
import { setTimeout as sleep } from 'node:timers/promises';
import { MINUTE_MS } from '../../time';
import { LiveQueryClient } from '../harness/live-query-client';
import { type LiveQueryCounters, liveQueryCounters, minus, total } from '../harness/replica-metrics';
import { cpuMs, type GatewayProcess, residentMb, type StandIn, startGateway } from '../processes/processes';
import { type LiveQueryShape, OVERVIEW, plainQuery } from '../scenarios/live-query-shapes';
import { GATEWAY_ENTRY, log } from '../shared';

/** The lists an observation holds (tunnels, endpoints, agents, reserved domains and addresses): the overview reads all. */
const LISTS = 5;

export interface RunOptions {
  readonly standIn: StandIn;
  readonly redisUrl: string;
  readonly key: string;
  readonly env: Readonly<Record<string, string>>;
  readonly replicas: number;
  readonly queries: number;
  readonly shapes: readonly LiveQueryShape[];
  readonly seconds: number;
  readonly changeEveryMs: number;
  readonly nodeArgs: readonly string[];
  /** Runs beside the change phase (the polling client of the 1-query run); resolves when it ends. */
  readonly beside?: (gateways: readonly GatewayProcess[], until: number) => Promise<void>;
}

export interface LiveQueryRunResult {
  readonly queries: number;
  readonly seconds: number;
  /** Upstream calls for the account during the change phase (the stand-in's count). */
  readonly calls: number;
  readonly callsPerMin: number;
  /** The pollers' own count of their calls in the same phase, and their complete walks of each list. */
  readonly pollCalls: number;
  readonly walks: Readonly<Record<string, number>>;
  /**
   * In the change phase: each replica's poll calls, walks by outcome, upstream calls by route and
   * retries (all replicas); at its end, which replicas polled (gateway_live_pollers).
   */
  readonly diagnostics: {
    readonly pollCallsByReplica: readonly number[];
    readonly walkOutcomes: Readonly<Record<string, number>>;
    readonly routes: Readonly<Record<string, number>>;
    readonly retries: number;
    readonly pollers: readonly number[];
  };
  /** Clients whose patched data equalled a fresh plain answer at the end; the names of those that did not. */
  readonly exact: number;
  readonly notExact: readonly string[];
  /** Clients whose stream ended before the run did, and payloads carrying errors. */
  readonly ended: number;
  readonly errorPayloads: number;
  readonly peakRssMb: readonly number[];
  /** From the first change to the end of the checks. */
  readonly evaluations: Readonly<Record<string, number>>;
  readonly cpuSeconds: number;
  /** The replicas' whole CPU time (/proc) over the same span: polls, evaluations, patches, transports. */
  readonly replicasCpuMs: number;
  readonly payloads: Readonly<Record<string, number>>;
  readonly payloadBytes: Readonly<Record<string, number>>;
  /** Upstream calls of one fresh plain answer of each shape (measured one at a time, at the end). */
  readonly plainCalls: Readonly<Record<string, number>>;
}

async function waitFor(condition: () => boolean | Promise<boolean>, deadlineMs: number): Promise<boolean> {
  const deadline = performance.now() + deadlineMs;
  while (!(await condition())) {
    if (performance.now() > deadline) return false;
    await sleep(500);
  }
  return true;
}

async function plainAnswer(url: string, key: string, shape: LiveQueryShape): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: plainQuery(shape.query), variables: shape.variables }),
  });
  return ((await response.json()) as { data?: unknown }).data;
}

export async function liveQueryRun(options: RunOptions): Promise<LiveQueryRunResult> {
  const { standIn, key, replicas, queries, shapes, seconds } = options;
  const env = { ...options.env, REDIS_URL: options.redisUrl, REDIS_FALLBACK_REPLICAS: String(replicas) };
  const gateways: GatewayProcess[] = [];
  const clients: { shape: LiveQueryShape; client: LiveQueryClient }[] = [];
  try {
    for (let i = 0; i < replicas; i += 1)
      gateways.push(
        await startGateway(GATEWAY_ENTRY, env, { nodeArgs: options.nodeArgs, timeoutMs: 60_000 }),
      );
    const metricsUrls = gateways.map((g) => g.url.replace(/\/graphql$/, '/metrics'));
    const counters = () => liveQueryCounters(metricsUrls);
    const open = async (i: number) => {
      const shape = i === 0 ? shapes.find((s) => s.name === OVERVIEW) : shapes[i % shapes.length];
      if (shape === undefined) throw new Error('no shape');
      const url = gateways[i % replicas]?.url ?? '';
      clients.push({ shape, client: await LiveQueryClient.open(url, key, shape.query, shape.variables) });
    };
    // The first query (the one that reads every list) starts the walks; the others open once every
    // list has been walked, so their first results come from the observation, not from the upstream.
    await open(0);
    const walked = await waitFor(
      async () => Object.values((await counters()).walks).length >= LISTS,
      2 * MINUTE_MS,
    );
    if (!walked) throw new Error('live-queries: the lists were not walked within 2 minutes');
    await Promise.all(Array.from({ length: queries - 1 }, (_, i) => open(i + 1)));
    const answered = await waitFor(() => clients.every((c) => c.client.payloads.length > 0), 3 * MINUTE_MS);
    log(
      `  live-queries (${queries}): ${clients.filter((c) => c.client.payloads.length > 0).length}/${queries} first results${answered ? '' : ' (NOT all, after 3 minutes)'}`,
    );

    const replicasCpu = () => gateways.reduce((sum, g) => sum + cpuMs(g.pid), 0);
    const before = await counters();
    const cpuBefore = replicasCpu();
    await standIn.resetCalls();
    const started = performance.now();
    await standIn.churn(key, options.changeEveryMs);
    const beside = options.beside?.(gateways, started + seconds * 1000);
    await sleep(seconds * 1000);
    await standIn.churn(key, 0);
    await beside;
    const minutes = (performance.now() - started) / MINUTE_MS;
    const calls = (await standIn.calls()).byKey[key] ?? 0;
    const stopped = await counters();

    // One more walk of every list, begun after the changes stopped: the second complete one of each.
    await waitFor(async () => {
      const walks = (await counters()).walks;
      return Object.entries(stopped.walks).every(([list, n]) => (walks[list] ?? 0) >= n + 2);
    }, 2 * MINUTE_MS);
    const plainCalls: Record<string, number> = {};
    const fresh = new Map<string, string>();
    // Its calls: the stand-in's for the account less the pollers' meanwhile (they go on walking).
    const upstreamCalls = async () =>
      ((await standIn.calls()).byKey[key] ?? 0) - (await counters()).pollCalls;
    for (const shape of shapes) {
      const calls = await upstreamCalls();
      fresh.set(shape.name, JSON.stringify(await plainAnswer(gateways[0]?.url ?? '', key, shape)));
      plainCalls[shape.name] = (await upstreamCalls()) - calls;
    }
    const isExact = async (c: (typeof clients)[number]) =>
      JSON.stringify(await c.client.data()) === fresh.get(c.shape.name);
    await waitFor(async () => (await Promise.all(clients.map(isExact))).every(Boolean), MINUTE_MS);
    const exact = await Promise.all(clients.map(isExact));
    const after: LiveQueryCounters = await counters();
    const replicasCpuMs = replicasCpu() - cpuBefore;
    return {
      queries,
      seconds,
      calls,
      callsPerMin: calls / minutes,
      pollCalls: stopped.pollCalls - before.pollCalls,
      walks: minus(stopped.walks, before.walks),
      diagnostics: {
        pollCallsByReplica: stopped.pollCallsByReplica.map((n, i) => n - (before.pollCallsByReplica[i] ?? 0)),
        walkOutcomes: minus(stopped.walkOutcomes, before.walkOutcomes),
        routes: minus(stopped.routes, before.routes),
        retries: stopped.retries - before.retries,
        pollers: stopped.pollers,
      },
      exact: exact.filter(Boolean).length,
      notExact: [...new Set(clients.filter((_, i) => !exact[i]).map((c) => c.shape.name))],
      ended: clients.filter((c) => c.client.ended).length,
      errorPayloads: clients.reduce((sum, c) => sum + c.client.errors, 0),
      peakRssMb: gateways.map((g) => residentMb(g.pid, 'VmHWM') ?? Number.NaN),
      evaluations: minus(after.evaluations, before.evaluations),
      cpuSeconds: after.cpuSeconds - before.cpuSeconds,
      replicasCpuMs,
      payloads: minus(after.payloads, before.payloads),
      payloadBytes: minus(after.payloadBytes, before.payloadBytes),
      plainCalls,
    };
  } finally {
    for (const c of clients) c.client.close();
    for (const g of gateways) await g.stop();
  }
}

/**
 * CPU ms per evaluation (the metric's, and the replicas' whole CPU over the evaluations: an upper
 * bound) and bytes per patch of a run.
 */
export function perEvaluation(run: LiveQueryRunResult): {
  cpuMs: number;
  wholeCpuMs: number;
  bytesPerPatch: number;
} {
  return {
    cpuMs: (run.cpuSeconds * 1000) / total(run.evaluations),
    wholeCpuMs: run.replicasCpuMs / total(run.evaluations),
    bytesPerPatch: (run.payloadBytes.patch ?? 0) / (run.payloads.patch ?? 0),
  };
}
