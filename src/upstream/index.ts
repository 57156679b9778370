// The upstream as the rest of the gateway sees it: the client, the transport and the domain types.

export type { AgentCommand } from './api/agent-commands';
export type { BackendModuleInput, RouteKey } from './api/backend-modules';
export { anyOf, equals } from './api/cel';
export { compileEndpointFilter, type EndpointFilterSpec, matchesNothing } from './api/endpoint-filter';
export type { EndpointFields } from './api/endpoints';
export type { ReservedAddress, ReservedDomain, TunnelSession } from './api/json/account-graph';
export type { BackendModule } from './api/json/backend-module';
export type { Endpoint } from './api/json/endpoint';
export type { Ref } from './api/json/fields';
export type { Tunnel, TunnelLabel, TunnelProtocol } from './api/json/tunnel';
export {
  type ListedResource,
  RESERVED_ADDRESSES,
  RESERVED_DOMAINS,
  TUNNEL_SESSIONS,
} from './api/listed-resources';
export { MAX_PAGE_SIZE, READINESS_REQUEST } from './api/tunnels';
export { type CallScope, liveJoinScope, newScope } from './call/call-scope';
export type { CircuitState, UpstreamEvents } from './call/hooks';
export { CallLedger } from './call/ledger';
export type { /** @internal test seam */ RouteName } from './call/request';
export { keyDigest, type UpstreamKey, upstreamKey } from './call/upstream-key';
export { NgrokClient } from './client';
export { observationCache, ReadCache } from './read-cache';
export type { UpstreamTracing } from './stages/trace';
export { type TransportOptions, UpstreamTransport } from './transport';
