// The upstream as the rest of the gateway sees it: the client, the transport and the domain types.
export type { BackendModule } from './backend-module-json';
export { ReadCache } from './cache';
export type { RouteName, UpstreamRequest, UpstreamResponse } from './call';
export { NgrokClient } from './client';
export { credentialDigest } from './credential-digest';
export { type CallScope, newScope, newTally, type UpstreamTally } from './deadline';
export type { BackendModuleInput, RouteKey } from './edges';
export type { CircuitState, UpstreamEvents } from './events';
export type { Ref } from './json-fields';
export type { UpstreamTracing } from './trace';
export { type TransportOptions, UpstreamTransport } from './transport';
export type { Tunnel, TunnelPage } from './tunnel-json';
export { MAX_PAGE_SIZE, type TunnelPageRequest } from './tunnels';
