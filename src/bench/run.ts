// `npm run bench [-- --quick]`: what the gateway costs on top of calling the REST API directly,
// and on top of graphql-yoga itself. Starts the stand-in, the built gateway and a bare yoga server as
// separate processes on loopback, loads each scenario after a warm-up (bench.ts), then prints a
// table and writes it as JSON and Markdown under bench-results/ (git-ignored).
import { mkdirSync, writeFileSync } from 'node:fs';
import { commandLine } from '../command-line';
import { Bench } from './harness/bench';
import { type GatewayProcess, residentMb, StandIn, startGateway } from './processes/processes';
import { liveQueriesMarkdown } from './report/live-queries';
import { markdown, rowsTable } from './report/markdown';
import { machine, type Report } from './report/report';
import { targets } from './report/targets';
import { measureFanOut } from './rows/fan-out';
import { measureLive } from './rows/live';
import { liveQueriesLines, measureLiveQueries } from './rows/live-queries';
import { liveScaleLines, measureLiveScale } from './rows/live-scale';
import { measurePlanning } from './rows/planning';
import { measureReplicas } from './rows/replicas';
import { startups } from './rows/startups';
import { settingsOf, USAGE } from './settings';
import { CACHE_TTL_MS, FLOOR_ENTRY, GATEWAY_ENTRY, log, OUT_DIR, SHARED_KEY, STAND_IN_ENTRY } from './shared';

/** Subscribers of the live row, all on one account. */
const LIVE_SUBSCRIBERS = 100;

async function main(): Promise<void> {
  const settings = commandLine(settingsOf, USAGE);
  if (settings === undefined) return;
  if (settings.mode === 'live-scale') return liveScale(settings.seconds, settings.nodeArgs);
  if (settings.mode === 'live-queries') return liveQueries(settings.seconds, settings.nodeArgs);
  const began = performance.now();
  const standIn = await StandIn.start(STAND_IN_ENTRY, Bench.allKeys(settings.connections));
  const gateways: GatewayProcess[] = [];
  try {
    // The same Node flags as the gateways, so the floor differs from them by the gateway alone; one
    // floor per upstream latency, its resolver waiting that long (none at 0 ms: it answers at once).
    const floors = new Map<number, GatewayProcess>();
    for (const latencyMs of settings.latencies) {
      const args = latencyMs > 0 ? ['--latency-ms', String(latencyMs)] : [];
      const floor = await startGateway(FLOOR_ENTRY, {}, { nodeArgs: settings.nodeArgs, portArg: true, args });
      floors.set(latencyMs, floor);
      gateways.push(floor);
    }
    const bench = new Bench(settings, standIn, floors);
    // The gateway's own cost, not its upstream budget: the replicas row measures that. node-mixed asks
    // for 17 tunnels by id, one GET each: over the default ceiling of 10 calls an operation.
    const base = {
      NGROK_API_URL: standIn.url,
      NODE_ENV: 'production',
      UPSTREAM_RATE_LIMIT_PER_MIN: '0',
      MAX_UPSTREAM_CALLS_PER_OPERATION: '100',
    };
    log(
      `bench (${settings.mode}): ${settings.connections} connections, ${settings.seconds} s per row after ${settings.warmupSeconds} s warm-up`,
    );
    const nodeArgs = settings.nodeArgs;
    const plain = await startGateway(GATEWAY_ENTRY, base, { nodeArgs });
    gateways.push(plain);
    // The same configuration for the rows that ask for compression (the buffers brotli leaves in a
    // process's RSS, about 20 MB, would otherwise show as the peak of every row measured after them),
    // and for the endpoint rows, whose peak must be their own.
    const compressing = await startGateway(GATEWAY_ENTRY, base, { nodeArgs });
    gateways.push(compressing);
    const endpoints = await startGateway(GATEWAY_ENTRY, base, { nodeArgs });
    gateways.push(endpoints);
    const processes = { compressing, endpoints } as const;
    const cached = await startGateway(
      GATEWAY_ENTRY,
      { ...base, CACHE_TTL_MS: String(CACHE_TTL_MS) },
      { nodeArgs },
    );
    gateways.push(cached);
    for (const latencyMs of settings.latencies) {
      await standIn.setLatency(latencyMs);
      for (const scenario of bench.scenarios)
        await bench.measure(
          scenario,
          scenario.process ? processes[scenario.process] : plain,
          'default',
          latencyMs,
        );
      await bench.halfLoadAt(plain, latencyMs);
      for (const name of settings.cacheScenarios)
        await bench.measure(bench.scenario(name), cached, 'cache', latencyMs);
    }
    await standIn.setLatency(0);
    const soak = settings.soakSeconds > 0 ? await bench.soak(cached, 'cache') : undefined;
    // The live and replicas rows run on a full run only (not with --only), each on its own gateways.
    const full = settings.only === undefined;
    const rowTarget = { standIn, entry: GATEWAY_ENTRY, key: SHARED_KEY, seconds: settings.seconds, nodeArgs };
    const live = full ? await measureLive({ ...rowTarget, subscribers: LIVE_SUBSCRIBERS }) : undefined;
    if (live) {
      log(
        `  live: ${live.subscribers} subscribers, ${live.events} events, ${live.callsPerMin.toFixed(1)} upstream calls/min, ${live.cpuMsPerEvent.toFixed(3)} CPU ms/event`,
      );
      if (live.complete !== live.subscribers)
        bench.problems.push(`live: ${live.subscribers - live.complete} subscribers missed events`);
    }
    const replicas = full ? await measureReplicas(rowTarget) : undefined;
    if (replicas)
      log(
        `  replicas: ${replicas.replicas} on one key, upstream calls in the minute ${replicas.withoutRedis.calls} per process, ${replicas.withRedis.calls} with Redis (limit ${replicas.limitPerMin})`,
      );
    const planning = measurePlanning();
    log(
      `  planning: ${planning.operations} example operations, ${(planning.meanUs / 1000).toFixed(4)} ms a plan on average, slowest ${planning.slowest.name} ${(planning.slowest.us / 1000).toFixed(4)} ms`,
    );
    const fanOut = measureFanOut();
    log(
      `  fan-out documents: ${fanOut.documents}, ${fanOut.refused} refused by the size bound (${(fanOut.refusedUs / 1000).toFixed(4)} ms each), the rest admitted (${(fanOut.admittedUs / 1000).toFixed(4)} ms each before running); largest ${fanOut.largest} fields expanded`,
    );
    const gatewayPeakRssMb = Math.max(
      ...gateways
        .filter((g) => ![...floors.values()].includes(g))
        .map((g) => residentMb(g.pid, 'VmHWM') ?? 0),
    );
    for (const g of gateways.splice(0)) await g.stop();
    const startup = full ? await startups(settings, standIn) : [];

    const partial: Omit<Report, 'targets'> = {
      mode: settings.mode,
      date: new Date().toISOString(),
      machine: machine(),
      settings: { ...settings, cacheTtlMs: CACHE_TTL_MS },
      rows: bench.rows,
      halfLoad: bench.halfLoad,
      soak,
      startup,
      ...(live ? { live } : {}),
      ...(replicas ? { replicas } : {}),
      planning,
      fanOut,
      gatewayPeakRssMb,
      problems: bench.problems,
    };
    const report: Report = { ...partial, targets: targets(partial) };
    const text = markdown(report);
    mkdirSync(OUT_DIR, { recursive: true });
    const stamp = report.date.replace(/[:.]/g, '-');
    // A partial run (--only) is kept but does not replace the latest full table.
    const names = [`bench-${settings.mode}-${stamp}`, ...(full ? ['latest'] : [])];
    for (const name of names) {
      writeFileSync(`${OUT_DIR}/${name}.json`, `${JSON.stringify(report, null, 2)}\n`);
      writeFileSync(`${OUT_DIR}/${name}.md`, text);
    }
    log('');
    log(rowsTable(report.rows));
    log('');
    log(text.slice(text.indexOf('### p99')));
    log(`Written to ${names.map((n) => `bench-results/${n}.{md,json}`).join(' and ')}`);
    log(`Took ${((performance.now() - began) / 1000).toFixed(0)} s.`);
    if (bench.problems.length > 0) process.exitCode = 1;
  } finally {
    for (const g of gateways) await g.stop();
    await standIn.stop();
  }
}

/** `--live-scale`: that run alone, its figures printed and written to bench-results/. */
async function liveScale(seconds: number, nodeArgs: readonly string[]): Promise<void> {
  const result = await measureLiveScale({ seconds, nodeArgs });
  const lines = liveScaleLines(result);
  for (const line of lines) log(line);
  mkdirSync(OUT_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(
    `${OUT_DIR}/live-scale-${stamp}.json`,
    `${JSON.stringify({ machine: machine(), ...result }, null, 2)}\n`,
  );
  if (result.exact !== result.readers || !result.control.exact) process.exitCode = 1;
}

/** `--live-queries`: that run alone, its figures printed and written to bench-results/ (JSON and Markdown). */
async function liveQueries(seconds: number, nodeArgs: readonly string[]): Promise<void> {
  const began = performance.now();
  const result = await measureLiveQueries({ seconds, nodeArgs });
  for (const line of liveQueriesLines(result)) log(line);
  mkdirSync(OUT_DIR, { recursive: true });
  const date = new Date().toISOString();
  const stamp = date.replace(/[:.]/g, '-');
  writeFileSync(
    `${OUT_DIR}/live-queries-${stamp}.json`,
    `${JSON.stringify({ machine: machine(), ...result }, null, 2)}\n`,
  );
  writeFileSync(`${OUT_DIR}/live-queries-${stamp}.md`, liveQueriesMarkdown(result, date));
  log(
    `Written to bench-results/live-queries-${stamp}.{md,json}; took ${((performance.now() - began) / 1000).toFixed(0)} s.`,
  );
  const exact = (run: { exact: number; queries: number }) => run.exact === run.queries;
  const rssOk = [...result.one.peakRssMb, ...result.many.peakRssMb].every((mb) => mb <= 200);
  if (!exact(result.one) || !exact(result.many) || !rssOk) process.exitCode = 1;
}

await main();
