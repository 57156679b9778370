// Endpoint events: what changed between two observations of an account's endpoints (ONLINE,
// OFFLINE, UPDATED when updated_at moved), and the event a write through the gateway makes.
import type { Endpoint } from '../../upstream';
import type { Snapshot } from '../observation/snapshots/snapshot';

export type EndpointEventKind = 'ONLINE' | 'OFFLINE' | 'UPDATED';

/** One change as subscribers receive it; plain data, so it can travel through any pub/sub. */
export interface EndpointEventPayload {
  readonly kind: EndpointEventKind;
  readonly endpointId: string;
  /** As listed (ONLINE, UPDATED), or as last seen (OFFLINE). */
  readonly endpoint: Endpoint;
  /** RFC 3339: when the walk (or the write) that saw the change ended. */
  readonly observedAt: string;
}

export const endpointEvent = (
  kind: EndpointEventKind,
  endpoint: Endpoint,
  observedAt: string,
): EndpointEventPayload => ({ kind, endpointId: endpoint.id, endpoint, observedAt });

/** ONLINE for new ids (newest first), UPDATED for a changed updatedAt, then OFFLINE for ids gone. */
export function endpointChanges(
  previous: Snapshot<Endpoint>,
  next: Snapshot<Endpoint>,
): EndpointEventPayload[] {
  const before = new Map(previous.items.map((e) => [e.id, e]));
  const after = new Set(next.items.map((e) => e.id));
  const online: EndpointEventPayload[] = [];
  const updated: EndpointEventPayload[] = [];
  for (const endpoint of next.items) {
    const was = before.get(endpoint.id);
    if (was === undefined) online.push(endpointEvent('ONLINE', endpoint, next.observedAt));
    else if (was.updatedAt !== endpoint.updatedAt)
      updated.push(endpointEvent('UPDATED', endpoint, next.observedAt));
  }
  const offline = previous.items
    .filter((endpoint) => !after.has(endpoint.id))
    .map((endpoint) => endpointEvent('OFFLINE', endpoint, next.observedAt));
  return [...online, ...updated, ...offline];
}

/** A write through the gateway: the endpoint as the upstream answered it, or the id it deleted. */
export type EndpointWrite =
  | { readonly type: 'created' | 'updated'; readonly endpoint: Endpoint }
  | { readonly type: 'deleted'; readonly id: string };
