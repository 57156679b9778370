// Live endpoint events: Subscription.endpointEvents and its EndpointEvent type. The stream comes
// from the context (src/live polls the upstream and announces writes); this file only shapes what
// subscribers receive.
import { type EndpointEventPayload, liveKindOf } from '../../live';
import { ENDPOINT } from '../../resources';
import { builder } from '../builder';
import { EndpointNode } from '../endpoints/endpoints';
import { liveSubscription } from './subscription-fields';

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

liveSubscription<EndpointEventPayload>('endpointEvents', {
  event: {
    name: 'EndpointEvent',
    description: 'An endpoint of the account appeared, changed or disappeared.',
    kind: [EndpointEventKind, 'ONLINE, OFFLINE or UPDATED.'],
    id: ['endpointId', "The endpoint's id; on OFFLINE, what a client removes (Relay: @deleteRecord)."],
    item: ['endpoint', 'The endpoint as listed (ONLINE, UPDATED), or as last seen (OFFLINE).', EndpointNode],
    observedAt: "When the gateway's poll (or a write through it) observed the change (RFC 3339).",
  },
  description:
    "Endpoints of the caller's account appearing, changing and disappearing, from the same one poller " +
    'per account (and budget) as tunnelEvents. A write made through this gateway is announced to every ' +
    'subscriber at once, without waiting for the next poll.',
  includeCurrent: 'First send an ONLINE event for every endpoint listed now.',
  list: liveKindOf(ENDPOINT),
});
