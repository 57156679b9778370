// Prometheus metrics of live queries (@live), registered in the gateway's own registry beside the
// live events' (metrics.ts).
import { Counter, Gauge, type Registry } from 'prom-client';

type Evaluation = 'changed' | 'unchanged' | 'failed';
/** What a payload was: the first result, a patch, or the error that ended the query. */
type PayloadKind = 'result' | 'patch' | 'error';

export interface QueryMetrics {
  opened(delta: number): void;
  /** One evaluation of a group over an observation, and the CPU it took (process.cpuUsage's). */
  evaluated(outcome: Evaluation, cpu: NodeJS.CpuUsage): void;
  sent(kind: PayloadKind, bytes: number): void;
}

export function createQueryMetrics(registry: Registry): QueryMetrics {
  const registers = [registry];
  const open = new Gauge({
    name: 'gateway_live_queries',
    help: 'Open live queries (@live, over SSE and WebSocket).',
    registers,
  });
  const evaluations = new Counter({
    name: 'gateway_live_query_evaluations_total',
    help: 'Live query evaluations over an observation (once per observation for identical live queries), by outcome: changed, unchanged, failed.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const cpu = new Counter({
    name: 'gateway_live_query_evaluation_cpu_seconds_total',
    help: 'CPU time (user and system) spent evaluating live queries over observations.',
    registers,
  });
  const payloads = new Counter({
    name: 'gateway_live_query_payloads_total',
    help: 'Live query payloads sent, by kind: result (the first), patch, error (the one that ends it).',
    labelNames: ['kind'] as const,
    registers,
  });
  const bytes = new Counter({
    name: 'gateway_live_query_payload_bytes_total',
    help: 'Bytes of live query payloads sent (as JSON), by kind: result, patch, error.',
    labelNames: ['kind'] as const,
    registers,
  });
  return {
    opened: (delta) => open.inc(delta),
    evaluated: (outcome, used) => {
      evaluations.inc({ outcome });
      cpu.inc((used.user + used.system) / 1e6);
    },
    sent: (kind, size) => {
      payloads.inc({ kind });
      bytes.inc({ kind }, size);
    },
  };
}
