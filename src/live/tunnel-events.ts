// Tunnel events: what changed between two observations of an account's tunnels (ONLINE, OFFLINE).
import type { Tunnel } from '../upstream';
import type { Snapshot } from './snapshot';

export type TunnelEventKind = 'ONLINE' | 'OFFLINE';

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

/** ONLINE for ids new in `next` (newest first), then OFFLINE for ids gone from `previous`. */
export function tunnelChanges(previous: Snapshot<Tunnel>, next: Snapshot<Tunnel>): TunnelEventPayload[] {
  const before = new Set(previous.items.map((t) => t.id));
  const after = new Set(next.items.map((t) => t.id));
  const events: TunnelEventPayload[] = [];
  for (const tunnel of next.items)
    if (!before.has(tunnel.id)) events.push(tunnelEvent('ONLINE', tunnel, next.observedAt));
  for (const tunnel of previous.items)
    if (!after.has(tunnel.id)) events.push(tunnelEvent('OFFLINE', tunnel, next.observedAt));
  return events;
}
