// Tunnel session events: an agent of the account connected or went away (presence-events.ts). A
// command through the gateway that ends a session (STOP, RESTART) is not announced by itself: the
// next walk of the list sees the session gone, as it would any other agent's.
import type { TunnelSession } from '../../upstream';
import type { PresenceKind } from './presence-events';

/** One change as subscribers receive it; plain data, so it can travel through any pub/sub. */
export interface TunnelSessionEventPayload {
  readonly kind: PresenceKind;
  readonly tunnelSessionId: string;
  /** As listed (ONLINE), or as last seen (OFFLINE). */
  readonly tunnelSession: TunnelSession;
  /** RFC 3339: when the walk that saw the change ended. */
  readonly observedAt: string;
}

export const tunnelSessionEvent = (
  kind: PresenceKind,
  tunnelSession: TunnelSession,
  observedAt: string,
): TunnelSessionEventPayload => ({ kind, tunnelSessionId: tunnelSession.id, tunnelSession, observedAt });
