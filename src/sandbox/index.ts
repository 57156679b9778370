// The local stand-in of ngrok's REST API: a real HTTP server for tests, benchmarks and frontends.
export { DEFAULT_START, demoData, makeTunnels } from './data';
export { REQUIRED_FIELD } from './faults';
export { idTime, newId } from './ids';
export { DEFAULT_API_KEY, startSandbox } from './server';
export type {
  AccountSeed,
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
  UpstreamTunnel,
} from './types';
export { ROUTE_NAMES } from './types';
