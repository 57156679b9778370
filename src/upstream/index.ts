// The upstream as the rest of the gateway sees it: the client, the transport and the domain types.

export type { BackendModule, Endpoint, Tunnel, TunnelSession } from '../resources';
export type { AgentCommand } from './api/agent-commands';
export type { BackendModuleInput, RouteKey } from './api/backend-modules';
export { equals } from './api/cel';
export { compileEndpointFilter, type EndpointFilterSpec, matchesNothing } from './api/endpoint-filter';
export type { EndpointFields } from './api/endpoints';
export { type ListedPage, type ListedPageRequest, MAX_PAGE_SIZE, READINESS_REQUEST } from './api/items';
export { type CallScope, liveJoinScope, newScope } from './call/call-scope';
export type { CircuitState, UpstreamEvents } from './call/hooks';
export { CallLedger } from './call/ledger';
export type { /** @internal test seam */ RouteName } from './call/request';
export { keyDigest, type UpstreamKey, upstreamKey } from './call/upstream-key';
export { NgrokClient } from './client';
export { observationCache, ReadCache } from './read-cache';
export type { UpstreamTracing } from './stages/trace';
export { type TransportOptions, UpstreamTransport } from './transport';
