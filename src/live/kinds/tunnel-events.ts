// Tunnel events: a tunnel of the account came online or went offline (presence-events.ts).
import type { Tunnel } from '../../upstream';
import type { PresenceKind } from './presence-events';

export type TunnelEventKind = PresenceKind;

/** One change as subscribers receive it; plain data, so it can travel through any pub/sub. */
export interface TunnelEventPayload {
  readonly kind: TunnelEventKind;
  readonly tunnelId: string;
  /** As listed (ONLINE), or as last seen (OFFLINE). */
  readonly tunnel: Tunnel;
  /** RFC 3339: when the walk that saw the change ended. */
  readonly observedAt: string;
}

export const tunnelEvent = (
  kind: TunnelEventKind,
  tunnel: Tunnel,
  observedAt: string,
): TunnelEventPayload => ({
  kind,
  tunnelId: tunnel.id,
  tunnel,
  observedAt,
});
