// The measurements: each scenario's row (a warm-up, then a measured phase with its CPU, RSS and
// upstream calls), the p99 at half load, and the memory run.

import { cpuMs, type GatewayProcess, type StandIn, sampleRss } from '../processes/processes';
import type { HalfLoad, Row, Soak } from '../report/report';
import type { Scenario } from '../scenarios/scenario';
import { scenarios } from '../scenarios/scenarios';
import type { Settings } from '../settings';
import { log, median, SHARED_KEY } from '../shared';
import { type Connection, type LoadResult, paced, saturate } from './load';

/** Rows every run measures, even with --only: the baselines the others are compared to. */
const ALWAYS = new Set(['rest-direct', 'yoga-floor']);

export class Bench {
  readonly rows: Row[] = [];
  readonly halfLoad: HalfLoad[] = [];
  readonly problems: string[] = [];
  private readonly keys: string[];
  private readonly list: Scenario[];

  constructor(
    readonly settings: Settings,
    readonly standIn: StandIn,
    /** The bare yoga servers of the yoga-floor rows, by upstream latency (the resolver waits it). */
    readonly floors: ReadonlyMap<number, GatewayProcess>,
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
      : this.list.filter((s) => ALWAYS.has(s.name) || only.includes(s.name));
  }

  /** The floor of this upstream latency. */
  floorAt(latencyMs: number): GatewayProcess {
    const floor = this.floors.get(latencyMs);
    if (!floor) throw new Error(`no yoga floor for ${latencyMs} ms`);
    return floor;
  }

  urlOf(scenario: Scenario, gateway: GatewayProcess | undefined, latencyMs = 0): string {
    if (scenario.target === 'rest') return `${this.standIn.url}${scenario.path}`;
    if (scenario.target === 'floor') return this.floorAt(latencyMs).url;
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
      const headers: Record<string, string> = { ...scenario.headers, authorization: `Bearer ${key}` };
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
    const wrong =
      scenario.check(response.status, await response.json().catch(() => undefined)) ??
      // A row that asks for compression measures it only if the answer was compressed.
      (scenario.headers?.['accept-encoding'] !== undefined && !response.headers.has('content-encoding')
        ? 'not compressed'
        : undefined);
    if (wrong) this.problems.push(`${scenario.name}: a sample answer was wrong (${wrong}); not measured`);
    return wrong === undefined;
  }

  async measure(scenario: Scenario, gateway: GatewayProcess | undefined, label: string, latencyMs: number) {
    const url = this.urlOf(scenario, gateway, latencyMs);
    const connections = this.connectionsOf(scenario);
    if (!(await this.check(scenario, url, connections[0] as Connection))) return;
    await saturate({ url, connections, seconds: this.settings.warmupSeconds });
    await this.standIn.resetCalls();
    const rss = scenario.target === 'gateway' && gateway ? sampleRss(gateway.pid) : undefined;
    const answering =
      scenario.target === 'floor'
        ? this.floorAt(latencyMs).pid
        : scenario.target === 'gateway' && gateway
          ? gateway.pid
          : this.standIn.pid;
    const cpuBefore = cpuMs(answering);
    const result = await saturate({ url, connections, seconds: this.settings.seconds });
    const cpu = cpuMs(answering) - cpuBefore;
    const samples = rss?.stop() ?? [];
    const calls = await this.standIn.calls();
    const rest = this.rows.find((r) => r.scenario === 'rest-direct' && r.latencyMs === latencyMs);
    const floor = this.rows.find((r) => r.scenario === 'yoga-floor' && r.latencyMs === latencyMs);
    const floor0 = this.rows.find((r) => r.scenario === 'yoga-floor' && r.latencyMs === 0);
    const cpuMsPerOp = cpu / Math.max(1, result.ok);
    const row: Row = {
      scenario: scenario.name,
      gateway: scenario.target === 'gateway' ? label : '–',
      latencyMs,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      ratio: rest ? result.rps / rest.rps : 1,
      callsPerOp: calls.total / Math.max(1, result.ok),
      cpuMsPerOp,
      cpuXFloor: floor ? cpuMsPerOp / floor.cpuMsPerOp : 1,
      cpuXFloor0: floor0
        ? cpuMsPerOp / floor0.cpuMsPerOp
        : scenario.target === 'floor' && latencyMs === 0
          ? 1
          : undefined,
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
        `x${row.ratio.toFixed(2)}  CPU x${row.cpuXFloor.toFixed(2)} floor${row.cpuXFloor0 === undefined || latencyMs === 0 ? '' : ` (x${row.cpuXFloor0.toFixed(2)} 0 ms floor)`}${row.peakRssMb === undefined ? '' : `  ${row.peakRssMb.toFixed(0)} MB`}`,
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
    const bodies = this.list
      .filter((s) => s.target === 'gateway' && s.headers === undefined)
      .map((s) => s.body ?? '');
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
