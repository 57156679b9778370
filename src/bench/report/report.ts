// The benchmark's results as one JSON document and a Markdown table (printed and written).

import { cpus, release, totalmem } from 'node:os';
import type { FanOutRow } from '../rows/fan-out';
import type { PlanningRow } from '../rows/planning';

export interface Row {
  readonly scenario: string;
  /** Which gateway configuration answered: `default`, or `cache` (CACHE_TTL_MS set). */
  readonly gateway: string;
  readonly latencyMs: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Throughput over rest-direct's in the same run, at the same upstream latency. */
  readonly ratio: number;
  readonly callsPerOp: number;
  /** CPU time per operation of the process answering (the gateway; the stand-in for rest-direct). */
  readonly cpuMsPerOp: number;
  /**
   * cpuMsPerOp over the yoga-floor row's, in the same run at the same upstream latency (that floor's
   * resolver waits the latency on a timer: bench/README.md).
   */
  readonly cpuXFloor: number;
  /** cpuMsPerOp over the 0 ms yoga-floor row's (the floor that answers at once); undefined without one. */
  readonly cpuXFloor0?: number;
  readonly minimumCalls: number;
  /** Highest gateway RSS sampled during the measured phase; undefined for rest-direct. */
  readonly peakRssMb?: number;
  readonly ok: number;
  readonly failed: number;
  /** Distinct credentials the stand-in saw during the phase. */
  readonly credentials: number;
}

export interface HalfLoad {
  readonly latencyMs: number;
  readonly rate: number;
  readonly restP99: number;
  readonly gatewayP99: number;
}

export interface Soak {
  readonly seconds: number;
  readonly gateway: string;
  readonly rps: number;
  readonly failed: number;
  readonly startMb: number;
  readonly endMb: number;
  readonly peakMb: number;
}

export interface Startup {
  readonly mode: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly maxMs: number;
}

/** One replica count's round-robin load on one key: what the upstream saw, with and without Redis. */
interface ReplicasLoad {
  /** Reads sent to the gateways, and those refused with RATE_LIMITED by the budget. */
  readonly sent: number;
  readonly refused: number;
  /** Upstream calls for the key during the run (all within one rolling minute). */
  readonly calls: number;
}

export interface ReplicasRow {
  readonly replicas: number;
  readonly limitPerMin: number;
  readonly seconds: number;
  readonly withoutRedis: ReplicasLoad;
  readonly withRedis: ReplicasLoad;
}

/** N subscribers of tunnelEvents on one account while its tunnels come and go. */
export interface LiveRow {
  readonly subscribers: number;
  readonly seconds: number;
  readonly pollIntervalMs: number;
  /** Events received, summed over subscribers. */
  readonly events: number;
  /** GET /tunnels calls per minute for the account: one poller's, whatever the subscribers. */
  readonly callsPerMin: number;
  /** Gateway CPU time per event delivered. */
  readonly cpuMsPerEvent: number;
  /** Subscribers that saw every change (the same count as the first). */
  readonly complete: number;
}

export interface Target {
  readonly target: string;
  readonly met: boolean;
  readonly detail: string;
}

export interface Report {
  readonly mode: 'quick' | 'full';
  readonly date: string;
  readonly machine: { cpus: number; model: string; memoryGb: number; node: string; kernel: string };
  readonly settings: Record<string, unknown>;
  readonly rows: readonly Row[];
  readonly halfLoad: readonly HalfLoad[];
  readonly soak?: Soak;
  readonly startup: readonly Startup[];
  readonly live?: LiveRow;
  readonly replicas?: ReplicasRow;
  readonly planning?: PlanningRow;
  readonly fanOut?: FanOutRow;
  readonly gatewayPeakRssMb?: number;
  readonly targets: readonly Target[];
  readonly problems: readonly string[];
}

export function machine(): Report['machine'] {
  const list = cpus();
  return {
    cpus: list.length,
    model: list[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kernel: release(),
  };
}

const fixed = (n: number | undefined, digits: number): string =>
  n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits);

function table(head: readonly string[], body: readonly (readonly string[])[]): string {
  const lines = [head, head.map(() => '---'), ...body].map((cells) => `| ${cells.join(' | ')} |`);
  return lines.join('\n');
}

export function rowsTable(rows: readonly Row[]): string {
  return table(
    [
      'scenario',
      'gateway',
      'upstream latency',
      'req/s',
      'p50 ms',
      'p99 ms',
      'x rest-direct',
      'calls/op (min)',
      'CPU ms/op',
      'CPU x yoga-floor',
      'CPU x 0 ms floor',
      'peak RSS MB',
    ],
    rows.map((r) => [
      r.scenario,
      r.gateway,
      `${r.latencyMs} ms`,
      fixed(r.rps, 0),
      fixed(r.p50, 2),
      fixed(r.p99, 2),
      fixed(r.ratio, 2),
      `${fixed(r.callsPerOp, 3)} (${r.minimumCalls})`,
      fixed(r.cpuMsPerOp, 3),
      fixed(r.cpuXFloor, 2),
      fixed(r.cpuXFloor0, 2),
      fixed(r.peakRssMb, 0),
    ]),
  );
}

export function markdown(report: Report): string {
  const m = report.machine;
  const parts = [
    `## Benchmark (${report.mode}, ${report.date})`,
    '',
    `Machine: ${m.cpus} cores (${m.model}), ${m.memoryGb} GB, Node ${m.node}, Linux ${m.kernel}. ` +
      `Load: autocannon, ${String(report.settings.connections)} connections, ` +
      `${String(report.settings.warmupSeconds)} s warm-up, ${String(report.settings.seconds)} s measured per row; ` +
      'the load generator, the gateway and the stand-in share the machine.',
    '',
    rowsTable(report.rows),
    '',
    '### p99 at half of peak load',
    '',
    table(
      ['upstream latency', 'rate req/s', 'rest-direct p99 ms', 'list-20-distinct p99 ms', 'difference ms'],
      report.halfLoad.map((h) => [
        `${h.latencyMs} ms`,
        fixed(h.rate, 0),
        fixed(h.restP99, 2),
        fixed(h.gatewayP99, 2),
        fixed(h.gatewayP99 - h.restP99, 2),
      ]),
    ),
    '',
    '### Start-up to first answer',
    '',
    table(
      ['mode', 'runs', 'median ms', 'max ms'],
      report.startup.map((s) => [s.mode, String(s.runs), fixed(s.medianMs, 0), fixed(s.maxMs, 0)]),
    ),
  ];
  if (report.replicas) {
    const r = report.replicas;
    const row = (name: string, l: ReplicasLoad) => [
      name,
      String(l.sent),
      String(l.refused),
      String(l.calls),
      `${Math.round((l.calls / r.limitPerMin) * 100)}%`,
    ];
    parts.push(
      '',
      `### ${r.replicas} replicas on one key, round-robin (${r.seconds} s of distinct reads, UPSTREAM_RATE_LIMIT_PER_MIN=${r.limitPerMin})`,
      '',
      table(
        ['state', 'reads sent', 'refused (RATE_LIMITED)', 'upstream calls in the minute', 'of the limit'],
        [row('per process', r.withoutRedis), row('shared (REDIS_URL)', r.withRedis)],
      ),
    );
  }
  if (report.live) {
    const l = report.live;
    parts.push(
      '',
      `### Live tunnel events (${l.subscribers} SSE subscribers on one account, poll every ${l.pollIntervalMs} ms, a tunnel comes or goes every 250 ms, ${l.seconds} s)`,
      '',
      table(
        [
          'subscribers',
          'events delivered',
          'upstream calls/min',
          'gateway CPU ms/event',
          'subscribers with every event',
        ],
        [
          [
            String(l.subscribers),
            String(l.events),
            fixed(l.callsPerMin, 1),
            fixed(l.cpuMsPerEvent, 3),
            `${l.complete}/${l.subscribers}`,
          ],
        ],
      ),
    );
  }
  if (report.planning) {
    const p = report.planning;
    parts.push(
      '',
      `### Planning (the demand planner alone, ${p.operations} example operations, in process)`,
      '',
      table(
        ['ms a plan, mean', 'slowest example', 'its ms a plan'],
        [[fixed(p.meanUs / 1000, 4), p.slowest.name, fixed(p.slowest.us / 1000, 4)]],
      ),
    );
  }
  if (report.fanOut) {
    const f = report.fanOut;
    parts.push(
      '',
      `### Fan-out documents (${f.documents} generated, 2 to 8 hops, before they run, in process)`,
      '',
      table(
        [
          'refused by the size bound',
          'ms each (parse, measure)',
          'ms each admitted (parse, measure, validate, plan)',
          'largest expansion',
        ],
        [[String(f.refused), fixed(f.refusedUs / 1000, 4), fixed(f.admittedUs / 1000, 4), String(f.largest)]],
      ),
    );
  }
  if (report.soak) {
    const s = report.soak;
    parts.push(
      '',
      `### Memory over a ${s.seconds} s run (${s.gateway} gateway, mixed operations, distinct credentials)`,
      '',
      table(
        ['req/s', 'failed', 'RSS at start MB', 'RSS at end MB', 'peak RSS MB'],
        [[fixed(s.rps, 0), String(s.failed), fixed(s.startMb, 1), fixed(s.endMb, 1), fixed(s.peakMb, 1)]],
      ),
    );
  }
  parts.push(
    '',
    '### Targets',
    '',
    table(
      ['target', 'met', 'numbers'],
      report.targets.map((t) => [t.target, t.met ? 'yes' : 'no', t.detail]),
    ),
  );
  if (report.problems.length > 0) parts.push('', '### Problems', '', ...report.problems.map((p) => `- ${p}`));
  return `${parts.join('\n')}\n`;
}
