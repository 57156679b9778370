// The local stand-in of ngrok's REST API: a real HTTP server for tests, benchmarks and frontends.
export {
  /** @internal test seam */ agentSessionOf,
  /** @internal test seam */ agentSessionsOf,
  /** @internal test seam */ reservationsFor,
} from './account-graph/data';
export { joinedAccount } from './account-graph/joined-account';
export { DEFAULT_API_KEY, startSandbox } from './http/server';
export { demoData } from './state/demo-data';
export { /** @internal test seam */ idTime, newId } from './state/ids';
export { Rng } from './state/rng';
export {
  /** @internal test seam */ DEFAULT_START,
  /** @internal test seam */ makeTunnels,
} from './tunnels/data';
export type {
  AccountSeed,
  CloudEndpoint,
  /** @internal test seam */ Fault,
  /** @internal test seam */ RouteName,
  Sandbox,
  /** @internal test seam */ SandboxOptions,
  /** @internal test seam */ UpstreamEndpoint,
  /** @internal test seam */ UpstreamTunnel,
} from './types';
export { ROUTE_NAMES } from './types';
