// Prometheus metrics at /metrics: yoga's Prometheus plugin for the GraphQL pipeline (request,
// parse, validate, context, execute, errors, HTTP duration; never per resolver) and the upstream
// client's own counters, fed by the transport's events. One Registry per gateway, so several
// gateways in one process (the tests) never clash on metric names. Client text never becomes a label
// unbounded: operation names go through OperationNameLabels (pipeline-metrics.ts); the upstream
// labels (route, method, status, code, source, kind, state) are the gateway's own fixed values; no
// metric is labelled by credential.
import type { Plugin } from 'graphql-yoga';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CircuitState, UpstreamEvents } from '../../upstream';
import { OperationNameLabels } from './operation-names';
import { usePipelineMetrics } from './pipeline-metrics';

const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half-open'];

export interface GatewayMetrics {
  readonly registry: Registry;
  /** Hooks for the upstream transport. */
  readonly events: UpstreamEvents;
  /** The yoga plugin that records the GraphQL pipeline and serves /metrics. */
  readonly plugin: Plugin;
}

/** Upstream latency buckets in seconds: the API answers in tens of milliseconds, times out at 10 s. */
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  /** prom-client's default process metrics; on unless false. */
  readonly processMetrics?: boolean;
  /** Distinct operation names given a series of their own (METRICS_MAX_OPERATION_NAMES). */
  readonly maxOperationNames: number;
}

export function createMetrics(options: MetricsOptions): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'gateway_upstream_requests_total',
    help: 'HTTP calls to the ngrok API, by route, method and answer status ("none" when no answer came).',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gateway_upstream_request_duration_seconds',
    help: 'Duration of one HTTP call to the ngrok API, answered or not.',
    labelNames: ['route', 'method'] as const,
    buckets: UPSTREAM_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Failed calls to the ngrok API, by route and the gateway error code they became.',
    labelNames: ['route', 'code'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'gateway_upstream_rate_limited_total',
    help: 'Calls refused for rate: 429 answers of the ngrok API (source="upstream") or the gateway itself: a full per-credential queue, a pause after a 429 or a spent upstream budget (source="gateway").',
    labelNames: ['route', 'source'] as const,
    registers: [registry],
  });
  const coalesced = new Counter({
    name: 'gateway_upstream_coalesced_total',
    help: 'GETs that joined an identical call already in flight instead of calling the ngrok API.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const cacheHits = new Counter({
    name: 'gateway_upstream_cache_hits_total',
    help: 'Reads answered by the per-credential read cache (CACHE_TTL_MS) without calling the ngrok API.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const retries = new Counter({
    name: 'gateway_upstream_retries_total',
    help: 'Calls to the ngrok API retried after a failure, by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const budgetCalls = new Counter({
    name: 'gateway_upstream_budget_calls_total',
    help: "Calls to the ngrok API granted by the gateway's own budget (UPSTREAM_RATE_LIMIT_PER_MIN), by route and kind (mutation, read, poll).",
    labelNames: ['route', 'kind'] as const,
    registers: [registry],
  });
  const budgetWaits = new Counter({
    name: 'gateway_upstream_budget_waits_total',
    help: "Times a call waited for the gateway's upstream budget to free a call within its operation's deadline, by route and kind.",
    labelNames: ['route', 'kind'] as const,
    registers: [registry],
  });
  const budgetRefusals = new Counter({
    name: 'gateway_upstream_budget_refusals_total',
    help: "Calls refused with RATE_LIMITED by the gateway's upstream budget (no free call within the deadline), by route and kind.",
    labelNames: ['route', 'kind'] as const,
    registers: [registry],
  });
  const circuit = new Gauge({
    name: 'gateway_upstream_circuit_state',
    help: 'State of the circuit breaker to the ngrok API: 1 for the current state (closed, open: calls refused at once, half-open: one probe), 0 for the others.',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const setCircuit = (current: CircuitState) => {
    for (const state of CIRCUIT_STATES) circuit.set({ state }, state === current ? 1 : 0);
  };
  setCircuit('closed');

  const events: UpstreamEvents = {
    attempt({ route, method, status, code, durationMs }) {
      requests.inc({ route, method, status: status === undefined ? 'none' : String(status) });
      duration.observe({ route, method }, durationMs / 1000);
      // A 404 is an answer (the resource does not exist), not a failure of the upstream.
      if (code !== undefined && status !== 404) errors.inc({ route, code });
    },
    coalesced({ route }) {
      coalesced.inc({ route });
    },
    cacheHit({ route }) {
      cacheHits.inc({ route });
    },
    retry({ route }) {
      retries.inc({ route });
    },
    rateLimited({ route, source }) {
      rateLimited.inc({ route, source });
    },
    budget({ route, kind, outcome }) {
      const counter = { granted: budgetCalls, waited: budgetWaits, refused: budgetRefusals }[outcome];
      counter.inc({ route, kind });
    },
    circuit: setCircuit,
  };

  const plugin = usePipelineMetrics(registry, new OperationNameLabels(options.maxOperationNames));
  return { registry, events, plugin };
}

/** The GraphQL pipeline's metrics and /metrics (usePipelineMetrics), for yoga's list of plugins. */
export const useMetrics = (metrics: GatewayMetrics): Plugin => metrics.plugin;
