// Live endpoint events: Subscription.endpointEvents and its EndpointEvent type. The stream comes
// from the context (src/live polls the upstream and announces writes); this file only shapes what
// subscribers receive.
import type { EndpointEventPayload } from '../live';
import { builder } from './builder';
import { EndpointNode } from './endpoints';
import { liveSubscription } from './live-subscriptions';

const EndpointEventKind = builder.enumType('EndpointEventKind', {
  description: "What happened to an endpoint between two observations of the account's endpoints.",
  values: {
    ONLINE: {
      value: 'ONLINE',
      description:
        'The endpoint is listed and was not in the previous observation (with includeCurrent: it is listed now).',
    },
    OFFLINE: {
      value: 'OFFLINE',
      description: 'The endpoint was in the previous observation and is no longer listed.',
    },
    UPDATED: { value: 'UPDATED', description: 'The endpoint is still listed and its updatedAt changed.' },
  } as const,
});

const EndpointEvent = builder.objectRef<EndpointEventPayload>('EndpointEvent').implement({
  description: 'An endpoint of the account appeared, changed or disappeared.',
  fields: (t) => ({
    kind: t.field({
      type: EndpointEventKind,
      description: 'ONLINE, OFFLINE or UPDATED.',
      resolve: (event) => event.kind,
    }),
    endpointId: t.exposeID('endpointId', {
      description: "The endpoint's id; on OFFLINE, what a client removes (Relay: @deleteRecord).",
    }),
    endpoint: t.field({
      type: EndpointNode,
      description: 'The endpoint as listed (ONLINE, UPDATED), or as last seen (OFFLINE).',
      resolve: (event) => event.endpoint,
    }),
    observedAt: t.field({
      type: 'DateTime',
      description: "When the gateway's poll (or a write through it) observed the change (RFC 3339).",
      resolve: (event) => event.observedAt,
    }),
  }),
});

liveSubscription('endpointEvents', {
  type: EndpointEvent,
  description:
    "Endpoints of the caller's account appearing, changing and disappearing, from the same one poller " +
    'per account (and budget) as tunnelEvents. A write made through this gateway is announced to every ' +
    'subscriber at once, without waiting for the next poll.',
  includeCurrent: 'First send an ONLINE event for every endpoint listed now.',
  list: 'endpoints',
});
