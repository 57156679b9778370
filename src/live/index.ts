// The face of live events to the rest of the gateway: the live side the server builds (app.ts) and
// the context subscribes through, and the types the schema and the transports name. Everything
// else in live/ is its own business (README.md): the kinds (kinds/), observation (observation/:
// polling, snapshots, replicas, the notices of each new observation, the writes announced) and
// delivery (delivery/: the subscriptions, their event streams and the live queries).
export type { SubscriberLink } from './delivery/events/backlog';
export type { StreamItem } from './delivery/events/event-stream';
export type { LiveQueryRequest } from './delivery/queries/query-group';
export type { LiveQueryItem } from './delivery/queries/query-stream';
export type { EndpointEventPayload, EndpointWrite } from './kinds/endpoint-events';
export { type LiveEvent, type LiveKind, liveKindOf, observedKindOf } from './kinds/kinds';
export type { TunnelEventPayload } from './kinds/tunnel-events';
export type { TunnelSessionEventPayload } from './kinds/tunnel-session-events';
export { Live } from './live';
