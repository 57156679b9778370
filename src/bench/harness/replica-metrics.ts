// The counters the live-queries run reads from each replica's /metrics (Prometheus text), summed
// over the replicas: the pollers' calls and walks, and the live queries' evaluations and payloads.

export interface LiveQueryCounters {
  /** gateway_live_poll_upstream_calls_total, and each replica's. */
  readonly pollCalls: number;
  readonly pollCallsByReplica: readonly number[];
  /** Walks by outcome (complete, failed, …), all lists; gateway_live_pollers of each replica (1: it polls). */
  readonly walkOutcomes: Readonly<Record<string, number>>;
  readonly pollers: readonly number[];
  /** Upstream calls by route (gateway_upstream_requests_total), and retries (gateway_upstream_retries_total). */
  readonly routes: Readonly<Record<string, number>>;
  readonly retries: number;
  /** Complete walks by list (gateway_live_polls_total{outcome="complete"}). */
  readonly walks: Readonly<Record<string, number>>;
  /** gateway_live_query_evaluations_total by outcome. */
  readonly evaluations: Readonly<Record<string, number>>;
  readonly cpuSeconds: number;
  /** gateway_live_query_payloads_total and _payload_bytes_total by kind (result, patch, error). */
  readonly payloads: Readonly<Record<string, number>>;
  readonly payloadBytes: Readonly<Record<string, number>>;
}

const SAMPLE = /^([a-z_]+)(?:\{([^}]*)\})? ([0-9.e+-]+)$/gm;

function add(into: Record<string, number>, key: string, value: number): void {
  into[key] = (into[key] ?? 0) + value;
}

/** The counters of every replica at `metricsUrls`, summed. */
export async function liveQueryCounters(metricsUrls: readonly string[]): Promise<LiveQueryCounters> {
  let pollCalls = 0;
  let cpuSeconds = 0;
  let retries = 0;
  const pollCallsByReplica: number[] = [];
  const pollers: number[] = [];
  const walkOutcomes: Record<string, number> = {};
  const routes: Record<string, number> = {};
  const walks: Record<string, number> = {};
  const evaluations: Record<string, number> = {};
  const payloads: Record<string, number> = {};
  const payloadBytes: Record<string, number> = {};
  for (const url of metricsUrls) {
    const text = await (await fetch(url)).text();
    const polledBefore = pollCalls;
    pollers.push(0);
    for (const [, name, labels = '', raw] of text.matchAll(SAMPLE)) {
      const value = Number(raw);
      const label = (key: string) => new RegExp(`${key}="([^"]*)"`).exec(labels)?.[1] ?? '';
      switch (name) {
        case 'gateway_live_poll_upstream_calls_total':
          pollCalls += value;
          break;
        case 'gateway_live_polls_total':
          if (label('outcome') === 'complete') add(walks, label('list'), value);
          add(walkOutcomes, label('outcome'), value);
          break;
        case 'gateway_live_pollers':
          pollers[pollers.length - 1] = value;
          break;
        case 'gateway_upstream_requests_total':
          add(routes, label('route'), value);
          break;
        case 'gateway_upstream_retries_total':
          retries += value;
          break;
        case 'gateway_live_query_evaluations_total':
          add(evaluations, label('outcome'), value);
          break;
        case 'gateway_live_query_evaluation_cpu_seconds_total':
          cpuSeconds += value;
          break;
        case 'gateway_live_query_payloads_total':
          add(payloads, label('kind'), value);
          break;
        case 'gateway_live_query_payload_bytes_total':
          add(payloadBytes, label('kind'), value);
          break;
      }
    }
    pollCallsByReplica.push(pollCalls - polledBefore);
  }
  return {
    pollCalls,
    pollCallsByReplica,
    walkOutcomes,
    pollers,
    routes,
    retries,
    walks,
    evaluations,
    cpuSeconds,
    payloads,
    payloadBytes,
  };
}

/** `after` minus `before`, key by key. */
export function minus(
  after: Readonly<Record<string, number>>,
  before: Readonly<Record<string, number>>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(after)) out[key] = value - (before[key] ?? 0);
  return out;
}

export const total = (counts: Readonly<Record<string, number>>): number =>
  Object.values(counts).reduce((sum, n) => sum + n, 0);
