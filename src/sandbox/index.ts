// The local stand-in of ngrok's REST API: a real HTTP server for tests, benchmarks and frontends.
export { agentSessionOf, agentSessionsOf, reservationsFor } from './account-graph/data';
export { joinedAccount } from './account-graph/joined-account';
export { DEFAULT_API_KEY, startSandbox } from './http/server';
export { demoData } from './state/demo-data';
export { idTime, newId } from './state/ids';
export { DEFAULT_START, makeTunnels } from './tunnels/data';
export type {
  AccountSeed,
  CloudEndpoint,
  Fault,
  RouteName,
  Sandbox,
  SandboxOptions,
  UpstreamEndpoint,
  UpstreamTunnel,
} from './types';
export { ROUTE_NAMES } from './types';
