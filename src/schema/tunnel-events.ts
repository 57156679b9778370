// Live tunnel events: Subscription.tunnelEvents and its TunnelEvent type. The stream comes from the
// context (src/live polls the upstream); this file only shapes what subscribers receive.
import type { TunnelEventPayload } from '../live';
import { builder } from './builder';
import { liveSubscription, presenceKindEnum } from './live-subscriptions';
import { TunnelNode } from './tunnels';

const TunnelEventKind = presenceKindEnum(
  'TunnelEventKind',
  "What happened to a tunnel between two observations of the account's tunnel list.",
  'tunnel',
);

const TunnelEvent = builder.objectRef<TunnelEventPayload>('TunnelEvent').implement({
  description: 'A tunnel of the account came online or went offline.',
  fields: (t) => ({
    kind: t.field({
      type: TunnelEventKind,
      description: 'ONLINE or OFFLINE.',
      resolve: (event) => event.kind,
    }),
    tunnelId: t.exposeID('tunnelId', {
      description: "The tunnel's id; on OFFLINE, what a client removes (Relay: @deleteRecord).",
    }),
    tunnel: t.field({
      type: TunnelNode,
      description: 'The tunnel as listed (ONLINE), or as last seen before it went offline (OFFLINE).',
      resolve: (event) => event.tunnel,
    }),
    observedAt: t.field({
      type: 'DateTime',
      description: "When the gateway's poll observed the change (RFC 3339).",
      resolve: (event) => event.observedAt,
    }),
  }),
});

liveSubscription('tunnelEvents', {
  type: TunnelEvent,
  description:
    "Tunnels of the caller's account coming online and going offline, as the gateway observes them. " +
    "One poll of the ngrok API per account serves every subscriber on every replica, within the account's " +
    'rate budget, and only changes are sent. With includeCurrent the stream first sends an ONLINE event ' +
    'for every tunnel online now, then the changes.',
  includeCurrent: 'First send an ONLINE event for every tunnel online now.',
  list: 'tunnels',
});
