// Live agent events: Subscription.tunnelSessionEvents and its TunnelSessionEvent type. The stream
// comes from the context (src/live walks the account's tunnel sessions with its other lists, only
// while someone subscribes); this file only shapes what subscribers receive.
import type { TunnelSessionEventPayload } from '../live';
import { builder } from './builder';
import { liveSubscription, presenceKindEnum } from './live-subscriptions';
import { TunnelSessionNode } from './tunnel-sessions';

const TunnelSessionEventKind = presenceKindEnum(
  'TunnelSessionEventKind',
  "What happened to an agent (tunnel session) between two observations of the account's online agents.",
  'session',
);

const TunnelSessionEvent = builder.objectRef<TunnelSessionEventPayload>('TunnelSessionEvent').implement({
  description: 'An agent of the account connected (ONLINE) or went away (OFFLINE).',
  fields: (t) => ({
    kind: t.field({
      type: TunnelSessionEventKind,
      description: 'ONLINE or OFFLINE.',
      resolve: (event) => event.kind,
    }),
    tunnelSessionId: t.exposeID('tunnelSessionId', {
      description: "The session's id; on OFFLINE, what a client removes (Relay: @deleteRecord).",
    }),
    tunnelSession: t.field({
      type: TunnelSessionNode,
      description: 'The session as listed (ONLINE), or as last seen (OFFLINE).',
      resolve: (event) => event.tunnelSession,
    }),
    observedAt: t.field({
      type: 'DateTime',
      description: "When the gateway's poll observed the change (RFC 3339).",
      resolve: (event) => event.observedAt,
    }),
  }),
});

liveSubscription('tunnelSessionEvents', {
  type: TunnelSessionEvent,
  description:
    "Agents of the caller's account connecting and disconnecting, from the same one poller per account " +
    '(and budget) as tunnelEvents and endpointEvents: the agents list is walked only while someone ' +
    'subscribes. A command sent through this gateway that ends a session (STOP, RESTART) is announced ' +
    'when the next poll sees the session gone; a restarted agent comes back ONLINE under a new id.',
  includeCurrent: 'First send an ONLINE event for every agent online now.',
  list: 'tunnel_sessions',
});
