// The live-queries mode of the benchmark (`npm run bench -- --live-queries [--seconds N]`): one
// account of 2,000 endpoints and 500 agents on the stand-in (its own process, live-account.ts),
// changing every 100 ms; live queries of 20 shapes (scenarios/live-query-shapes.ts) spread over 3
// replicas on one redis-server. Two runs (live-query-run.ts), each on fresh replicas and a fresh
// Redis: one live query (the overview, which reads every list), with one client beside it re-running
// the same query as a plain one every poll interval on an account of its own; then 200 live queries.
// What it shows: the upstream calls a minute are the walks' pages in both runs, every client's
// patched data is exact at the end, each replica's peak RSS, CPU per evaluation and bytes per patch.
import { setTimeout as sleep } from 'node:timers/promises';
import type { GatewayProcess } from '../processes/processes';
import { StandIn } from '../processes/processes';
import { liveQueryShapes, OVERVIEW, plainQuery } from '../scenarios/live-query-shapes';
import { STAND_IN_ENTRY } from '../shared';
import { type LiveQueryRunResult, liveQueryRun, perEvaluation } from './live-query-run';
import { startRedis } from './replicas';

const KEY = 'bench-live-queries';
/** The polling client's account: the same data, its calls counted apart. */
const POLL_KEY = 'bench-live-queries-polling';
const REPLICAS = 3;
const QUERIES = 200;
const CHANGE_EVERY_MS = 100;
/**
 * The account's upstream limit, on the stand-in and the gateways alike: ten times the API's 120, so
 * that a walk (36 pages: 5 of tunnels, 20 of endpoints, 5 of agents, 4 of reserved domains, 2 of
 * reserved addresses) fits every 5 s in the poller's share (at most half the limit). At 120 the
 * share is 60 calls a minute: one walk every 36 s, the same pages whatever the number of queries.
 */
const LIMIT_PER_MIN = 1_200;
const POLL_BUDGET_PER_MIN = 600;
const POLL_INTERVAL_MS = 5_000;

export interface LiveQueriesResult {
  readonly settings: {
    readonly replicas: number;
    readonly limitPerMin: number;
    readonly pollBudgetPerMin: number;
    readonly pollIntervalMs: number;
    readonly changeEveryMs: number;
    readonly shapes: number;
  };
  readonly one: LiveQueryRunResult;
  readonly many: LiveQueryRunResult;
  /** The overview re-run as a plain query every poll interval by one client, during the 1-query run. */
  readonly polling: {
    readonly runs: number;
    readonly refused: number;
    readonly calls: number;
    readonly callsPerMin: number;
  };
}

/** One client re-running `query` as a plain one every POLL_INTERVAL_MS until `until`. */
async function poll(url: string, query: string, variables: unknown, until: number) {
  let runs = 0;
  let refused = 0;
  const began = performance.now();
  while (performance.now() < until) {
    const next = began + (runs + 1) * POLL_INTERVAL_MS;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${POLL_KEY}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { errors?: unknown[] };
    runs += 1;
    if ((body.errors?.length ?? 0) > 0) refused += 1;
    await sleep(Math.max(0, Math.min(next, until) - performance.now()));
  }
  return { runs, refused };
}

export async function measureLiveQueries(options: {
  seconds: number;
  nodeArgs: readonly string[];
}): Promise<LiveQueriesResult> {
  const standIn = await StandIn.start(
    STAND_IN_ENTRY,
    [KEY, POLL_KEY],
    ['--live-queries', '--rate-limit', String(LIMIT_PER_MIN)],
  );
  try {
    const shapes = liveQueryShapes(standIn.account);
    const overview = shapes.find((s) => s.name === OVERVIEW);
    if (overview === undefined) throw new Error('no overview shape');
    const env = {
      NGROK_API_URL: standIn.url,
      NODE_ENV: 'production',
      UPSTREAM_RATE_LIMIT_PER_MIN: String(LIMIT_PER_MIN),
      LIVE_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
      LIVE_POLL_BUDGET_PER_MIN: String(POLL_BUDGET_PER_MIN),
      LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: String(QUERIES),
    };
    let polled = { runs: 0, refused: 0 };
    const run = async (
      queries: number,
      beside?: (gateways: readonly GatewayProcess[], until: number) => Promise<void>,
    ) => {
      const redis = await startRedis();
      if (!redis) throw new Error('--live-queries needs /usr/bin/redis-server');
      try {
        return await liveQueryRun({
          standIn,
          redisUrl: redis.url,
          key: KEY,
          env,
          replicas: REPLICAS,
          queries,
          shapes,
          seconds: options.seconds,
          changeEveryMs: CHANGE_EVERY_MS,
          nodeArgs: options.nodeArgs,
          ...(beside ? { beside } : {}),
        });
      } finally {
        redis.child.kill('SIGKILL');
      }
    };
    let pollCalls = 0;
    const one = await run(1, async (gateways, until) => {
      await standIn.churn(POLL_KEY, CHANGE_EVERY_MS);
      polled = await poll(gateways[1]?.url ?? '', plainQuery(overview.query), overview.variables, until);
      await standIn.churn(POLL_KEY, 0);
      pollCalls = (await standIn.calls()).byKey[POLL_KEY] ?? 0;
    });
    const many = await run(QUERIES);
    return {
      settings: {
        replicas: REPLICAS,
        limitPerMin: LIMIT_PER_MIN,
        pollBudgetPerMin: POLL_BUDGET_PER_MIN,
        pollIntervalMs: POLL_INTERVAL_MS,
        changeEveryMs: CHANGE_EVERY_MS,
        shapes: shapes.length,
      },
      one,
      many,
      polling: { ...polled, calls: pollCalls, callsPerMin: pollCalls / (options.seconds / 60) },
    };
  } finally {
    await standIn.stop();
  }
}

/** The figures as the bench prints them. */
export function liveQueriesLines(r: LiveQueriesResult): string[] {
  const s = r.settings;
  const runLines = (run: LiveQueryRunResult) => {
    const { cpuMs, wholeCpuMs, bytesPerPatch } = perEvaluation(run);
    const turns = run.walks.endpoints ?? 0;
    return [
      `  ${run.queries} live ${run.queries === 1 ? 'query' : 'queries'}: ${run.callsPerMin.toFixed(1)} upstream calls/min (${run.calls} in the change phase; the pollers counted ${run.pollCalls}: ${turns} walks, ${(run.pollCalls / Math.max(1, turns)).toFixed(1)} pages a walk)`,
      `    exact at the end: ${run.exact}/${run.queries}${run.notExact.length > 0 ? ` (NOT exact: ${run.notExact.join(', ')})` : ''}; streams ended early: ${run.ended}; payloads with errors: ${run.errorPayloads}`,
      `    change phase: poll calls per replica ${run.diagnostics.pollCallsByReplica.join(', ')}; walks ${JSON.stringify(run.diagnostics.walkOutcomes)}; calls by route ${JSON.stringify(run.diagnostics.routes)}; retries ${run.diagnostics.retries}; polling at the end ${run.diagnostics.pollers.join(', ')}`,
      `    peak RSS per replica: ${run.peakRssMb.map((mb) => `${mb.toFixed(0)} MB`).join(', ')} (target <= 200 MB)`,
      `    evaluations: ${Object.entries(run.evaluations)
        .map(([k, n]) => `${n} ${k}`)
        .join(
          ', ',
        )}; ${cpuMs.toFixed(3)} CPU ms an evaluation (the replicas' whole CPU over the evaluations: ${wholeCpuMs.toFixed(3)} ms); ${run.payloads.patch ?? 0} patches, ${bytesPerPatch.toFixed(0)} bytes a patch`,
    ];
  };
  return [
    `live-queries: 2,000 endpoints and 500 agents on one account, a change every ${s.changeEveryMs} ms for ${r.many.seconds} s; ${s.replicas} replicas on one redis-server; UPSTREAM_RATE_LIMIT_PER_MIN=${s.limitPerMin} (stand-in and gateways), LIVE_POLL_BUDGET_PER_MIN=${s.pollBudgetPerMin}, LIVE_POLL_INTERVAL_MS=${s.pollIntervalMs}`,
    ...runLines(r.one),
    ...runLines(r.many),
    `  the overview re-run as a plain query every ${s.pollIntervalMs} ms by one client: ${r.polling.callsPerMin.toFixed(1)} upstream calls/min (${r.polling.runs} runs, ${r.polling.refused} with errors)`,
    `  one plain answer of each shape, upstream calls: ${Object.entries(r.many.plainCalls)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')}`,
  ];
}
