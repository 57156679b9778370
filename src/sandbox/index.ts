// The local stand-in of ngrok's REST API: a real HTTP server for tests, benchmarks and frontends.
export { agentSessionOf, agentSessionsOf, reservationsFor } from './account-graph-data';
export { DEFAULT_START, demoData, makeTunnels } from './data';
export { REQUIRED_FIELD } from './faults';
export { idTime, newId } from './ids';
export { joinedAccount } from './joined-account';
export { DEFAULT_API_KEY, startSandbox } from './server';
export type {
  AccountGraphCollection,
  AccountSeed,
  AgentUpdateState,
  CloudEndpoint,
  CloudEndpointInput,
  EdgeSeed,
  Fault,
  Ref,
  RouteName,
  RouteSeed,
  Sandbox,
  SandboxOptions,
  UpstreamEndpoint,
  UpstreamReservedAddr,
  UpstreamReservedDomain,
  UpstreamTunnel,
  UpstreamTunnelSession,
} from './types';
export { ROUTE_NAMES } from './types';
