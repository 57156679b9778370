// The face of live events to the rest of the gateway: the registry the server builds (app.ts) and
// the context subscribes through, and the types the schema and the transports name. Everything
// else in live/ is its own business: the kinds (kinds/), the poller (polling/), the snapshots
// (snapshots/), the fan-out to subscribers (fan-out/), and the lease and interest marks that make
// one replica poll for all (replicas/).
export type { SubscriberLink } from './fan-out/backlog';
export type { Observed } from './fan-out/event-joins';
export type { StreamItem } from './fan-out/event-stream';
export type { EndpointEventPayload, EndpointWrite } from './kinds/endpoint-events';
export type { LiveEvent, LiveKind } from './kinds/kinds';
export type { TunnelEventPayload } from './kinds/tunnel-events';
export type { TunnelSessionEventPayload } from './kinds/tunnel-session-events';
export { LiveEvents } from './live-events';
