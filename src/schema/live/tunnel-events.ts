// Live tunnel events: Subscription.tunnelEvents and its TunnelEvent type. The stream comes from the
// context (src/live polls the upstream); this file only shapes what subscribers receive.
import { liveKindOf, type TunnelEventPayload } from '../../live';
import { TUNNEL } from '../../resources';
import { TunnelNode } from '../tunnels/tunnels';
import { liveSubscription, presenceKindEnum } from './subscription-fields';

const TunnelEventKind = presenceKindEnum(
  'TunnelEventKind',
  "What happened to a tunnel between two observations of the account's tunnel list.",
  'tunnel',
);

liveSubscription<TunnelEventPayload>('tunnelEvents', {
  event: {
    name: 'TunnelEvent',
    description: 'A tunnel of the account came online or went offline.',
    kind: [TunnelEventKind, 'ONLINE or OFFLINE.'],
    id: ['tunnelId', "The tunnel's id; on OFFLINE, what a client removes (Relay: @deleteRecord)."],
    item: [
      'tunnel',
      'The tunnel as listed (ONLINE), or as last seen before it went offline (OFFLINE).',
      TunnelNode,
    ],
    observedAt: "When the gateway's poll observed the change (RFC 3339).",
  },
  description:
    "Tunnels of the caller's account coming online and going offline, as the gateway observes them. " +
    "One poll of the ngrok API per account serves every subscriber on every replica, within the account's " +
    'rate budget, and only changes are sent. With includeCurrent the stream first sends an ONLINE event ' +
    'for every tunnel online now, then the changes.',
  includeCurrent: 'First send an ONLINE event for every tunnel online now.',
  list: liveKindOf(TUNNEL),
});
