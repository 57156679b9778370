// The live-queries run's section of the report, as Markdown (written beside its JSON by run.ts).
import type { LiveQueriesResult } from '../rows/live-queries';
import { type LiveQueryRunResult, perEvaluation } from '../rows/live-query-run';

const fixed = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

export function liveQueriesMarkdown(r: LiveQueriesResult, date: string): string {
  const s = r.settings;
  const row = (run: LiveQueryRunResult) => {
    const { cpuMs, wholeCpuMs, bytesPerPatch } = perEvaluation(run);
    const turns = run.walks.endpoints ?? 0;
    const evaluations = Object.values(run.evaluations).reduce((sum, n) => sum + n, 0);
    return [
      String(run.queries),
      fixed(run.callsPerMin, 1),
      `${run.calls} (pollers: ${run.pollCalls})`,
      `${turns}, ${fixed(run.pollCalls / turns, 1)}`,
      `${run.exact}/${run.queries}${run.notExact.length > 0 ? ` (not: ${run.notExact.join(', ')})` : ''}`,
      run.peakRssMb.map((mb) => fixed(mb, 0)).join(', '),
      `${evaluations} (${run.evaluations.changed ?? 0} changed)`,
      `${fixed(cpuMs, 3)} (${fixed(wholeCpuMs, 3)})`,
      `${run.payloads.patch ?? 0}, ${fixed(bytesPerPatch, 0)}`,
    ];
  };
  const head = [
    'live queries',
    'upstream calls/min',
    'calls in the change phase',
    'walks, pages a walk',
    'exact at the end',
    'peak RSS per replica MB',
    'evaluations',
    "CPU ms an evaluation (replicas' whole CPU / evaluations)",
    'patches, bytes a patch',
  ];
  const lines = [head, head.map(() => '---'), row(r.one), row(r.many)].map(
    (cells) => `| ${cells.join(' | ')} |`,
  );
  return [
    `### Live queries (${date}): ${s.shapes} shapes over ${s.replicas} replicas on one redis-server, a change every ${s.changeEveryMs} ms for ${r.many.seconds} s`,
    '',
    `2,000 endpoints and 500 agents on one account; UPSTREAM_RATE_LIMIT_PER_MIN=${s.limitPerMin} on the stand-in and the gateways, LIVE_POLL_BUDGET_PER_MIN=${s.pollBudgetPerMin}, LIVE_POLL_INTERVAL_MS=${s.pollIntervalMs}.`,
    '',
    ...lines,
    '',
    `The overview (the 1-query run's query) re-run as a plain query every ${s.pollIntervalMs} ms by one client: ${fixed(r.polling.callsPerMin, 1)} upstream calls/min (${r.polling.runs} runs, ${r.polling.refused} with errors).`,
    '',
    `One plain answer of each shape, upstream calls: ${Object.entries(r.many.plainCalls)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')}.`,
    '',
  ].join('\n');
}
