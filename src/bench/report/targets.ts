// The benchmark's targets, each met or not, with the numbers that decide it.

import { CACHE_TTL_MS } from '../shared';
import type { Report, Target } from './report';

/** The most CPU per operation each scenario may cost, as a multiple of the bare yoga server's. */
const FLOOR_TARGETS: readonly [string, number][] = [
  ['typename', 1.5],
  ['list-20', 2.5],
  ['list-20-distinct', 3],
  ['by-id-10', 4],
  ['tunnels-20-join-endpoints', 3],
];

export function targets(report: Omit<Report, 'targets'>): Target[] {
  const out: Target[] = [];
  if (report.planning) {
    const p = report.planning;
    out.push({
      target: 'planning ≤ 0.05 ms an operation (every example)',
      met: p.slowest.us <= 50,
      detail: `mean ${(p.meanUs / 1000).toFixed(4)} ms, slowest ${p.slowest.name} ${(p.slowest.us / 1000).toFixed(4)} ms`,
    });
  }
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
    const join = row('tunnels-20-join-endpoints', 'default', latencyMs);
    if (join) {
      out.push({
        target: `a join of 20 tunnels to their endpoints: 2 calls (${latencyMs} ms)`,
        met: join.callsPerOp <= 2.001,
        detail: `${join.callsPerOp.toFixed(3)} calls/op`,
      });
    }
    const joinAll = row('endpoints-20-join-all', 'default', latencyMs);
    if (joinAll) {
      out.push({
        target: `20 endpoints joined to agents, domains and addresses: 4 calls (${latencyMs} ms)`,
        met: joinAll.callsPerOp <= 4.001,
        detail: `${joinAll.callsPerOp.toFixed(3)} calls/op`,
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
  // CPU per operation over yoga's own (the yoga-floor row of the same run and latency; at 20 ms its
  // resolver waits 20 ms too), with the 0 ms floor's multiple beside it.
  for (const [scenario, limit] of FLOOR_TARGETS) {
    for (const latencyMs of report.settings.latencies as number[]) {
      const r = row(scenario, 'default', latencyMs);
      if (!r) continue;
      out.push({
        target: `${scenario} CPU ≤ ${limit}x yoga-floor (${latencyMs} ms)`,
        met: r.cpuXFloor <= limit,
        detail:
          `${r.cpuXFloor.toFixed(2)}x (${r.cpuMsPerOp.toFixed(3)} ms/op` +
          (latencyMs > 0 && r.cpuXFloor0 !== undefined
            ? `; ${r.cpuXFloor0.toFixed(2)}x the 0 ms floor)`
            : ')'),
      });
    }
  }
  const peaks = report.rows.flatMap((r) => (r.peakRssMb === undefined ? [] : [r.peakRssMb]));
  const peak = Math.max(...peaks, report.soak?.peakMb ?? 0);
  out.push({ target: 'peak RSS under load ≤ 150 MB', met: peak <= 150, detail: `${peak.toFixed(0)} MB` });
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
