// The benchmark's results as one JSON document (written beside the Markdown: markdown.ts), and the
// machine it ran on.

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
