// Live agent events: Subscription.tunnelSessionEvents and its TunnelSessionEvent type. The stream
// comes from the context (src/live walks the account's tunnel sessions with its other lists, only
// while someone subscribes); this file only shapes what subscribers receive.
import { liveKindOf, type TunnelSessionEventPayload } from '../../live';
import { TUNNEL_SESSION } from '../../resources';
import { TunnelSessionNode } from '../account-graph/tunnel-sessions';
import { liveSubscription, presenceKindEnum } from './subscription-fields';

const TunnelSessionEventKind = presenceKindEnum(
  'TunnelSessionEventKind',
  "What happened to an agent (tunnel session) between two observations of the account's online agents.",
  'session',
);

liveSubscription<TunnelSessionEventPayload>('tunnelSessionEvents', {
  event: {
    name: 'TunnelSessionEvent',
    description: 'An agent of the account connected (ONLINE) or went away (OFFLINE).',
    kind: [TunnelSessionEventKind, 'ONLINE or OFFLINE.'],
    id: ['tunnelSessionId', "The session's id; on OFFLINE, what a client removes (Relay: @deleteRecord)."],
    item: ['tunnelSession', 'The session as listed (ONLINE), or as last seen (OFFLINE).', TunnelSessionNode],
    observedAt: "When the gateway's poll observed the change (RFC 3339).",
  },
  description:
    "Agents of the caller's account connecting and disconnecting, from the same one poller per account " +
    '(and budget) as tunnelEvents and endpointEvents: the agents list is walked only while someone ' +
    'subscribes. A command sent through this gateway that ends a session (STOP, RESTART) is announced ' +
    'when the next poll sees the session gone; a restarted agent comes back ONLINE under a new id.',
  includeCurrent: 'First send an ONLINE event for every agent online now.',
  list: liveKindOf(TUNNEL_SESSION),
});
