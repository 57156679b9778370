// `npm run bench [-- --quick]`: what the gateway costs on top of calling the REST API directly.
// Starts the stand-in and the built gateway as separate processes on loopback, loads each
// scenario after a warm-up, counts upstream calls at the stand-in, samples the gateway's RSS,
// then prints a table and writes it as JSON and Markdown under bench-results/ (git-ignored).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureLive } from './live';
import { type Connection, type LoadResult, paced, saturate } from './load';
import { cpuMs, type GatewayProcess, residentMb, StandIn, sampleRss, startGateway } from './processes';
import { measureReplicas } from './replicas';
import {
  type HalfLoad,
  machine,
  markdown,
  type Report,
  type Row,
  rowsTable,
  type Soak,
  type Startup,
  type Target,
} from './report';
import { type Scenario, scenarios } from './scenarios';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GATEWAY_ENTRY = `${ROOT}dist/main.js`;
const STAND_IN_ENTRY = `${ROOT}dist/bench/standin.js`;
const OUT_DIR = `${ROOT}bench-results`;
const SHARED_KEY = 'bench-shared';
/** The cache setting of the `cache` gateway rows. */
const CACHE_TTL_MS = 1000;
/** Subscribers of the live row, all on one account. */
const LIVE_SUBSCRIBERS = 100;

const USAGE = `Usage: npm run bench [-- options]

  --quick             a short run (under a minute): 0 ms upstream latency only, no 60 s memory run
  --latency LIST      upstream latencies in ms, comma-separated (default 0,20; quick: 0)
  --seconds N         measured seconds per row (default 10; quick: 2)
  --connections N     concurrent connections (default 16)
  --soak N            seconds of the memory run (default 60; quick: 0 = none)
  --only LIST         these scenarios only (and rest-direct), no start-up timing; for profiling
  --cpu-prof DIR      write the gateways' CPU profiles (node --cpu-prof) into DIR
  --node-arg ARG      a Node flag for the gateways (repeatable; default --max-old-space-size=128, as npm start)
  --help              this text
`;

interface Settings {
  readonly mode: 'quick' | 'full';
  readonly latencies: readonly number[];
  readonly warmupSeconds: number;
  readonly seconds: number;
  readonly connections: number;
  readonly soakSeconds: number;
  readonly startupRuns: number;
  /** Scenarios measured again on a gateway with the read cache on. */
  readonly cacheScenarios: readonly string[];
  /** Scenario names to run (rest-direct always runs); undefined: all, and the start-up timing. */
  readonly only?: readonly string[];
  /** Node flags of the measured gateways (--cpu-prof). */
  readonly nodeArgs: readonly string[];
}

function settingsOf(argv: readonly string[]): Settings | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean' },
      latency: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      soak: { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'node-arg': { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick === true;
  const whole = (raw: string | undefined, fallback: number, min: number, max: number, name: string) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name}: a whole number from ${min} to ${max}`);
    return n;
  };
  const only = values.only?.split(',').map((s) => s.trim());
  const latencies = (values.latency ?? (quick ? '0' : '0,20'))
    .split(',')
    .map((s) => whole(s, 0, 0, 1000, 'latency'));
  return {
    mode: quick ? 'quick' : 'full',
    latencies,
    warmupSeconds: quick ? 1 : 3,
    seconds: whole(values.seconds, quick ? 2 : 10, 1, 600, 'seconds'),
    connections: whole(values.connections, 16, 1, 256, 'connections'),
    soakSeconds: whole(values.soak, quick ? 0 : 60, 0, 3600, 'soak'),
    startupRuns: quick ? 3 : 5,
    cacheScenarios: (quick
      ? ['list-20']
      : ['list-20', 'list-20-distinct', 'by-id-10', 'list-then-read']
    ).filter((name) => only === undefined || only.includes(name)),
    ...(only === undefined ? {} : { only }),
    nodeArgs: [
      // The heap size `npm start` and the container recipe give the gateway (see the README).
      ...(values['node-arg'] ?? ['--max-old-space-size=128']),
      ...(values['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`]),
    ],
  };
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

class Bench {
  readonly rows: Row[] = [];
  readonly halfLoad: HalfLoad[] = [];
  readonly problems: string[] = [];
  private readonly keys: string[];
  private readonly list: Scenario[];

  constructor(
    readonly settings: Settings,
    readonly standIn: StandIn,
  ) {
    this.keys = Array.from(
      { length: settings.connections },
      (_, i) => `bench-k${String(i).padStart(3, '0')}`,
    );
    this.list = scenarios(standIn.account);
  }

  static allKeys(connections: number): string[] {
    return [
      SHARED_KEY,
      ...Array.from({ length: connections }, (_, i) => `bench-k${String(i).padStart(3, '0')}`),
    ];
  }

  scenario(name: string): Scenario {
    const found = this.list.find((s) => s.name === name);
    if (!found) throw new Error(`no scenario ${name}`);
    return found;
  }

  get scenarios(): readonly Scenario[] {
    const only = this.settings.only;
    return only === undefined
      ? this.list
      : this.list.filter((s) => s.name === 'rest-direct' || only.includes(s.name));
  }

  urlOf(scenario: Scenario, gateway: GatewayProcess | undefined): string {
    if (scenario.target === 'rest') return `${this.standIn.url}${scenario.path}`;
    if (!gateway) throw new Error('no gateway');
    return gateway.url;
  }

  connectionsOf(
    scenario: Scenario,
    distinct = scenario.credentials === 'distinct',
    bodies?: string[],
  ): Connection[] {
    return Array.from({ length: this.settings.connections }, (_, i) => {
      const key = distinct ? (this.keys[i] ?? SHARED_KEY) : SHARED_KEY;
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (scenario.target === 'rest') headers['ngrok-version'] = '2';
      const body = bodies ? bodies[i % bodies.length] : scenario.body;
      return body === undefined ? { headers } : { headers, body };
    });
  }

  /** One request first: a row measures only operations that answer right. */
  async check(scenario: Scenario, url: string, connection: Connection): Promise<boolean> {
    const response = await fetch(url, {
      method: connection.body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...connection.headers },
      body: connection.body,
    });
    const wrong = scenario.check(response.status, await response.json().catch(() => undefined));
    if (wrong) this.problems.push(`${scenario.name}: a sample answer was wrong (${wrong}); not measured`);
    return wrong === undefined;
  }

  async measure(scenario: Scenario, gateway: GatewayProcess | undefined, label: string, latencyMs: number) {
    const url = this.urlOf(scenario, gateway);
    const connections = this.connectionsOf(scenario);
    if (!(await this.check(scenario, url, connections[0] as Connection))) return;
    await saturate({ url, connections, seconds: this.settings.warmupSeconds });
    await this.standIn.resetCalls();
    const rss = scenario.target === 'gateway' && gateway ? sampleRss(gateway.pid) : undefined;
    const answering = scenario.target === 'gateway' && gateway ? gateway.pid : this.standIn.pid;
    const cpuBefore = cpuMs(answering);
    const result = await saturate({ url, connections, seconds: this.settings.seconds });
    const cpu = cpuMs(answering) - cpuBefore;
    const samples = rss?.stop() ?? [];
    const calls = await this.standIn.calls();
    const rest = this.rows.find((r) => r.scenario === 'rest-direct' && r.latencyMs === latencyMs);
    const row: Row = {
      scenario: scenario.name,
      gateway: scenario.target === 'rest' ? '–' : label,
      latencyMs,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      ratio: rest ? result.rps / rest.rps : 1,
      callsPerOp: calls.total / Math.max(1, result.ok),
      cpuMsPerOp: cpu / Math.max(1, result.ok),
      minimumCalls: scenario.minimumCalls,
      peakRssMb: samples.length > 0 ? Math.max(...samples.map((s) => s.mb)) : undefined,
      ok: result.ok,
      failed: result.failed,
      credentials: Object.values(calls.byKey).filter((n) => n > 0).length,
    };
    this.rows.push(row);
    if (result.failed > 0)
      this.problems.push(`${scenario.name} (${label}, ${latencyMs} ms): ${result.failed} failed requests`);
    log(
      `  ${scenario.name.padEnd(17)} ${label.padEnd(8)} ${String(latencyMs).padStart(3)} ms  ${row.rps.toFixed(0).padStart(6)} req/s  ` +
        `p50 ${row.p50.toFixed(2)}  p99 ${row.p99.toFixed(2)} ms  ${row.callsPerOp.toFixed(3)} calls/op  ${row.cpuMsPerOp.toFixed(3)} CPU ms/op  ` +
        `x${row.ratio.toFixed(2)}${row.peakRssMb === undefined ? '' : `  ${row.peakRssMb.toFixed(0)} MB`}`,
    );
  }

  /** rest-direct and list-20-distinct at half of list-20-distinct's peak rate. */
  async halfLoadAt(gateway: GatewayProcess, latencyMs: number): Promise<void> {
    const peak = this.rows.find(
      (r) => r.scenario === 'list-20-distinct' && r.gateway === 'default' && r.latencyMs === latencyMs,
    );
    if (!peak) return;
    const rate = peak.rps / 2;
    const at = async (name: string): Promise<LoadResult> => {
      const scenario = this.scenario(name);
      const spec = {
        url: this.urlOf(scenario, gateway),
        connections: this.connectionsOf(scenario, true),
        rate,
      };
      await paced({ ...spec, seconds: this.settings.warmupSeconds });
      return paced({ ...spec, seconds: this.settings.seconds });
    };
    const rest = await at('rest-direct');
    const own = await at('list-20-distinct');
    this.halfLoad.push({ latencyMs, rate, restP99: rest.p99, gatewayP99: own.p99 });
    if (rest.failed + own.failed > 0)
      this.problems.push(`half load (${latencyMs} ms): ${rest.failed + own.failed} failed`);
    log(
      `  half load ${rate.toFixed(0)} req/s at ${latencyMs} ms: p99 rest-direct ${rest.p99.toFixed(2)} ms, list-20-distinct ${own.p99.toFixed(2)} ms`,
    );
  }

  /** Every operation at once, each connection its own credential; RSS once a second. */
  async soak(gateway: GatewayProcess, label: string): Promise<Soak> {
    const bodies = this.list.filter((s) => s.target === 'gateway').map((s) => s.body ?? '');
    const connections = this.connectionsOf(this.scenario('list-20'), true, bodies);
    const rss = sampleRss(gateway.pid, 1000);
    const result = await saturate({ url: gateway.url, connections, seconds: this.settings.soakSeconds });
    const samples = rss.stop();
    const window = Math.min(10, this.settings.soakSeconds / 4);
    // Start after the first window (the heap grows to its working size), end: the last window.
    const startMb = median(samples.filter((s) => s.t >= window && s.t < 2 * window).map((s) => s.mb));
    const endMb = median(samples.filter((s) => s.t >= this.settings.soakSeconds - window).map((s) => s.mb));
    const peakMb = Math.max(...samples.map((s) => s.mb));
    log(
      `  memory run ${this.settings.soakSeconds} s: ${result.rps.toFixed(0)} req/s, RSS ${startMb.toFixed(1)} → ${endMb.toFixed(1)} MB, peak ${peakMb.toFixed(1)} MB`,
    );
    if (result.failed > 0) this.problems.push(`memory run: ${result.failed} failed requests`);
    return {
      seconds: this.settings.soakSeconds,
      gateway: label,
      rps: result.rps,
      failed: result.failed,
      startMb,
      endMb,
      peakMb,
    };
  }
}

async function startups(settings: Settings, standIn: StandIn): Promise<Startup[]> {
  const modes: { mode: string; env: Record<string, string> }[] = [
    {
      mode: 'node dist/main.js, NGROK_API_URL set',
      env: { NGROK_API_URL: standIn.url, NODE_ENV: 'production' },
    },
    { mode: 'node dist/main.js, embedded stand-in', env: {} },
  ];
  const out: Startup[] = [];
  for (const { mode, env } of modes) {
    const times: number[] = [];
    for (let i = 0; i < settings.startupRuns; i += 1) {
      const gateway = await startGateway(GATEWAY_ENTRY, env, {
        headers: { authorization: `Bearer ${SHARED_KEY}` },
      });
      times.push(gateway.startupMs);
      await gateway.stop();
    }
    out.push({ mode, runs: times.length, medianMs: median(times), maxMs: Math.max(...times) });
    log(
      `  start-up (${mode}): median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    );
  }
  return out;
}

function targets(report: Omit<Report, 'targets'>): Target[] {
  const out: Target[] = [];
  const row = (scenario: string, gateway: string, latencyMs: number) =>
    report.rows.find((r) => r.scenario === scenario && r.gateway === gateway && r.latencyMs === latencyMs);
  for (const latencyMs of report.settings.latencies as number[]) {
    const distinct = row('list-20-distinct', 'default', latencyMs);
    if (distinct) {
      out.push({
        target: `list-20-distinct ≥ 0.4x rest-direct (${latencyMs} ms)`,
        met: distinct.ratio >= 0.4,
        detail: `${distinct.ratio.toFixed(2)}x (${distinct.rps.toFixed(0)} req/s)`,
      });
    }
    const half = report.halfLoad.find((h) => h.latencyMs === latencyMs);
    if (half) {
      const diff = half.gatewayP99 - half.restP99;
      out.push({
        target: `p99 at half load within 3 ms of rest-direct (${latencyMs} ms)`,
        met: diff <= 3,
        detail: `${half.gatewayP99.toFixed(2)} vs ${half.restP99.toFixed(2)} ms (+${diff.toFixed(2)})`,
      });
    }
    const byId = row('by-id-10', 'default', latencyMs);
    if (byId) {
      out.push({
        target: `by-id-10 ≤ 10 upstream calls (${latencyMs} ms)`,
        met: byId.callsPerOp <= 10.01,
        detail: `${byId.callsPerOp.toFixed(3)} calls/op`,
      });
    }
    const listThenRead = row('list-then-read', 'default', latencyMs);
    if (listThenRead) {
      out.push({
        target: `list then reads of listed ids: 1 call (${latencyMs} ms)`,
        met: listThenRead.callsPerOp <= 1.001,
        detail: `${listThenRead.callsPerOp.toFixed(3)} calls/op`,
      });
    }
    const list = row('list-20', 'default', latencyMs);
    const cached = row('list-20', 'cache', latencyMs);
    if (list) {
      const best = cached && cached.ratio > list.ratio ? cached : list;
      out.push({
        target: `list-20 above rest-direct (${latencyMs} ms)`,
        met: best.ratio > 1,
        detail:
          `coalescing only: ${list.ratio.toFixed(2)}x, ${list.callsPerOp.toFixed(3)} calls/op` +
          (cached
            ? `; cache ${CACHE_TTL_MS} ms: ${cached.ratio.toFixed(2)}x, ${cached.callsPerOp.toFixed(4)} calls/op`
            : ''),
      });
    }
  }
  const peaks = report.rows.flatMap((r) => (r.peakRssMb === undefined ? [] : [r.peakRssMb]));
  const peak = Math.max(...peaks, report.soak?.peakMb ?? 0);
  out.push({ target: 'peak RSS under load < 150 MB', met: peak < 150, detail: `${peak.toFixed(0)} MB` });
  if (report.soak) {
    const growth = report.soak.endMb - report.soak.startMb;
    out.push({
      target: `no RSS growth across ${report.soak.seconds} s`,
      met: growth <= Math.max(5, report.soak.startMb * 0.05),
      detail: `${report.soak.startMb.toFixed(1)} → ${report.soak.endMb.toFixed(1)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)})`,
    });
  }
  for (const s of report.startup) {
    out.push({
      target: `start-up < 1 s (${s.mode})`,
      met: s.maxMs < 1000,
      detail: `median ${s.medianMs.toFixed(0)} ms, max ${s.maxMs.toFixed(0)} ms`,
    });
  }
  return out;
}

async function main(): Promise<void> {
  let settings: Settings | 'help';
  try {
    settings = settingsOf(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (settings === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const began = performance.now();
  const standIn = await StandIn.start(STAND_IN_ENTRY, Bench.allKeys(settings.connections));
  const gateways: GatewayProcess[] = [];
  try {
    const bench = new Bench(settings, standIn);
    // The gateway's own cost, not its upstream budget: the replicas row measures that.
    const base = { NGROK_API_URL: standIn.url, NODE_ENV: 'production', UPSTREAM_RATE_LIMIT_PER_MIN: '0' };
    log(
      `bench (${settings.mode}): ${settings.connections} connections, ${settings.seconds} s per row after ${settings.warmupSeconds} s warm-up`,
    );
    const nodeArgs = settings.nodeArgs;
    const plain = await startGateway(GATEWAY_ENTRY, base, { nodeArgs });
    gateways.push(plain);
    const cached = await startGateway(
      GATEWAY_ENTRY,
      { ...base, CACHE_TTL_MS: String(CACHE_TTL_MS) },
      { nodeArgs },
    );
    gateways.push(cached);
    for (const latencyMs of settings.latencies) {
      await standIn.setLatency(latencyMs);
      for (const scenario of bench.scenarios) await bench.measure(scenario, plain, 'default', latencyMs);
      await bench.halfLoadAt(plain, latencyMs);
      for (const name of settings.cacheScenarios)
        await bench.measure(bench.scenario(name), cached, 'cache', latencyMs);
    }
    await standIn.setLatency(0);
    const soak = settings.soakSeconds > 0 ? await bench.soak(cached, 'cache') : undefined;
    const live =
      settings.only === undefined
        ? await measureLive({
            standIn,
            entry: GATEWAY_ENTRY,
            key: SHARED_KEY,
            subscribers: LIVE_SUBSCRIBERS,
            seconds: settings.seconds,
            nodeArgs,
          })
        : undefined;
    if (live) {
      log(
        `  live: ${live.subscribers} subscribers, ${live.events} events, ${live.callsPerMin.toFixed(1)} upstream calls/min, ${live.cpuMsPerEvent.toFixed(3)} CPU ms/event`,
      );
      if (live.complete !== live.subscribers)
        bench.problems.push(`live: ${live.subscribers - live.complete} subscribers missed events`);
    }
    const replicas =
      settings.only === undefined
        ? await measureReplicas({
            standIn,
            entry: GATEWAY_ENTRY,
            key: SHARED_KEY,
            seconds: settings.seconds,
            nodeArgs,
          })
        : undefined;
    if (replicas)
      log(
        `  replicas: ${replicas.replicas} on one key, upstream calls in the minute ${replicas.withoutRedis.calls} per process, ${replicas.withRedis.calls} with Redis (limit ${replicas.limitPerMin})`,
      );
    const gatewayPeakRssMb = Math.max(...gateways.map((g) => residentMb(g.pid, 'VmHWM') ?? 0));
    for (const g of gateways.splice(0)) await g.stop();
    const startup = settings.only === undefined ? await startups(settings, standIn) : [];

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
      gatewayPeakRssMb,
      problems: bench.problems,
    };
    const report: Report = { ...partial, targets: targets(partial) };
    const text = markdown(report);
    mkdirSync(OUT_DIR, { recursive: true });
    const stamp = report.date.replace(/[:.]/g, '-');
    // A partial run (--only) is kept but does not replace the latest full table.
    const names = [`bench-${settings.mode}-${stamp}`, ...(settings.only === undefined ? ['latest'] : [])];
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

await main();
