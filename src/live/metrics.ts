// Prometheus metrics of live events (tunnels and endpoints), registered in the gateway's own registry.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { LiveKind } from './kinds/kinds';

type PollOutcome = 'complete' | 'failed' | 'refused' | 'too_large' | 'lease_lost';

export interface LiveMetrics {
  subscriptions(list: LiveKind, delta: number): void;
  pollers(delta: number): void;
  standby(delta: number): void;
  poll(list: LiveKind, outcome: PollOutcome): void;
  upstreamCalls(count: number): void;
  /** Calls made to join live events of `list` (Ref.node of their items), paid from the live share. */
  joinCalls(list: LiveKind, count: number): void;
  sent(list: LiveKind, kind: string): void;
  /**
   * A subscriber was dropped: more than LIVE_MAX_SUBSCRIBER_BUFFER_BYTES unread (size), or nothing
   * read for LIVE_MAX_SUBSCRIBER_STALL_MS while events waited (time).
   */
  tooSlow(transport: string, cause: 'size' | 'time'): void;
  /** Bytes held for one subscriber after it queued a message: the peak gauge keeps the largest. */
  held(bytes: number): void;
}

/** `heldBytes`: what every open subscriber holds now, read at each scrape. */
export function createLiveMetrics(registry: Registry, heldBytes: () => number = () => 0): LiveMetrics {
  const registers = [registry];
  const subscriptions = new Gauge({
    name: 'gateway_live_subscriptions',
    help: 'Open live subscriptions (SSE and WebSocket), by list (tunnels, endpoints, tunnel_sessions).',
    labelNames: ['list'] as const,
    registers,
  });
  const pollers = new Gauge({
    name: 'gateway_live_pollers',
    help: 'Credentials whose lists this process polls now (with REDIS_URL: it holds their lease).',
    registers,
  });
  const standby = new Gauge({
    name: 'gateway_live_standby_pollers',
    help: 'Credentials with subscribers here whose lists another replica polls (this one takes over if it stops).',
    registers,
  });
  const polls = new Counter({
    name: 'gateway_live_polls_total',
    help: 'Walks of a list (tunnels, endpoints, tunnel_sessions): complete (an observation), failed (discarded, backed off), refused (the upstream refused the list: its streams end), too_large (the list outgrew LIVE_MAX_SNAPSHOT_BYTES: its streams end), lease_lost (cut short or discarded: another replica took the lease).',
    labelNames: ['list', 'outcome'] as const,
    registers,
  });
  const calls = new Counter({
    name: 'gateway_live_poll_upstream_calls_total',
    help: 'Calls to the ngrok API made by live pollers (retries included); each counts against LIVE_POLL_BUDGET_PER_MIN.',
    registers,
  });
  const joins = new Counter({
    name: 'gateway_live_join_calls_total',
    help: 'Calls to the ngrok API made to join live events (Ref.node of their items), by list; each counts against LIVE_POLL_BUDGET_PER_MIN.',
    labelNames: ['list'] as const,
    registers,
  });
  /** Events sent since the last scrape, by list and kind: counted per event without allocating. */
  const unsent: Record<string, Record<string, number>> = {};
  new Counter({
    name: 'gateway_live_events_sent_total',
    help: 'Live events (tunnelEvents, endpointEvents, tunnelSessionEvents) sent to subscribers, by list and kind.',
    labelNames: ['list', 'kind'] as const,
    registers,
    collect() {
      for (const [list, kinds] of Object.entries(unsent))
        for (const [kind, n] of Object.entries(kinds)) {
          if (n > 0) this.inc({ list, kind }, n);
          kinds[kind] = 0;
        }
    },
  });
  const dropped = new Counter({
    name: 'gateway_live_subscribers_dropped_total',
    help: 'Subscribers dropped for reading too slowly, by transport and cause: size (more than LIVE_MAX_SUBSCRIBER_BUFFER_BYTES unread) or time (nothing read for LIVE_MAX_SUBSCRIBER_STALL_MS while events waited).',
    labelNames: ['transport', 'cause'] as const,
    registers,
  });
  const peak = new Gauge({
    name: 'gateway_live_subscriber_held_bytes_peak',
    help: 'Most bytes of events ever held for one subscriber (queued, plus unsent in its socket) since start.',
    registers,
  });
  new Gauge({
    name: 'gateway_live_held_bytes',
    help: 'Bytes of events held now for every open subscriber (queued, plus unsent in their sockets).',
    registers,
    collect() {
      this.set(heldBytes());
    },
  });
  let peakBytes = 0;
  return {
    subscriptions: (list, delta) => subscriptions.inc({ list }, delta),
    pollers: (delta) => pollers.inc(delta),
    standby: (delta) => standby.inc(delta),
    poll: (list, outcome) => polls.inc({ list, outcome }),
    upstreamCalls: (count) => calls.inc(count),
    joinCalls: (list, count) => joins.inc({ list }, count),
    sent: (list, kind) => {
      let kinds = unsent[list];
      if (kinds === undefined) {
        kinds = {};
        unsent[list] = kinds;
      }
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    },
    tooSlow: (transport, cause) => dropped.inc({ transport, cause }),
    held: (bytes) => {
      if (bytes <= peakBytes) return;
      peakBytes = bytes;
      peak.set(bytes);
    },
  };
}
