// Prometheus metrics of live tunnel events, registered in the gateway's own registry.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { TunnelEventKind } from './snapshot';

export type PollOutcome = 'complete' | 'failed' | 'refused';

export interface LiveMetrics {
  subscriptions(delta: number): void;
  pollers(delta: number): void;
  standby(delta: number): void;
  poll(outcome: PollOutcome): void;
  upstreamCalls(count: number): void;
  sent(kind: TunnelEventKind): void;
}

export function createLiveMetrics(registry: Registry): LiveMetrics {
  const registers = [registry];
  const subscriptions = new Gauge({
    name: 'gateway_live_subscriptions',
    help: 'Open tunnelEvents subscriptions (SSE and WebSocket).',
    registers,
  });
  const pollers = new Gauge({
    name: 'gateway_live_pollers',
    help: 'Credentials whose tunnel list this process polls now (with REDIS_URL: it holds their lease).',
    registers,
  });
  const standby = new Gauge({
    name: 'gateway_live_standby_pollers',
    help: 'Credentials with subscribers here whose tunnel list another replica polls (this one takes over if it stops).',
    registers,
  });
  const polls = new Counter({
    name: 'gateway_live_polls_total',
    help: 'Walks of a tunnel list: complete (an observation), failed (discarded, backed off), refused (credential refused, poller stopped).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const calls = new Counter({
    name: 'gateway_live_poll_upstream_calls_total',
    help: 'Calls to the ngrok API made by live pollers (retries included); each counts against LIVE_POLL_BUDGET_PER_MIN.',
    registers,
  });
  const events = new Counter({
    name: 'gateway_live_events_sent_total',
    help: 'tunnelEvents sent to subscribers, by kind.',
    labelNames: ['kind'] as const,
    registers,
  });
  return {
    subscriptions: (delta) => subscriptions.inc(delta),
    pollers: (delta) => pollers.inc(delta),
    standby: (delta) => standby.inc(delta),
    poll: (outcome) => polls.inc({ outcome }),
    upstreamCalls: (count) => calls.inc(count),
    sent: (kind) => events.inc({ kind }),
  };
}
