// The benchmark's results as Markdown tables (printed and written beside the JSON: report.ts).

import type { ReplicasRow, Report, Row } from './report';

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
    const row = (name: string, l: ReplicasRow['withRedis']) => [
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
