// The ids an example operation's variables are filled with: read from the stand-in's seed when the
// gateway embeds it, else placeholders a person replaces.

/** Ids the examples' variables are filled with. */
export interface ExampleIds {
  readonly tunnelId: string;
  /** A tunnel with an endpoint, and that endpoint. */
  readonly agentTunnelId: string;
  readonly endpointId: string;
  readonly edgeId: string;
  readonly routeId: string;
  /** Another backend than the route's, for ReplaceBackend. */
  readonly backendId: string;
}

/** What a person fills in when the gateway does not know real ids. */
export const PLACEHOLDER_IDS: ExampleIds = {
  tunnelId: 'tn_…',
  agentTunnelId: 'tn_…',
  endpointId: 'ep_…',
  edgeId: 'edghts_…',
  routeId: 'edghtsrt_…',
  backendId: 'bkdtg_…',
};

/** The part of a stand-in seed the ids come from (structural: the gateway does not import the stand-in). */
export interface ExampleSeed {
  readonly tunnels?: readonly { readonly id: string; readonly endpoint?: { readonly id: string } }[];
  readonly edges?: readonly {
    readonly id: string;
    readonly routes: readonly { readonly id: string; readonly backend?: { readonly backendId: string } }[];
  }[];
  readonly backends?: readonly string[];
}

/** Ids from a seed: tunnels, an endpoint, and a route with a module plus another backend for it. */
export function exampleIdsFrom(seed: ExampleSeed): ExampleIds | undefined {
  const tunnelId = seed.tunnels?.[0]?.id;
  const agent = seed.tunnels?.find((t) => t.endpoint !== undefined);
  if (!tunnelId || !agent?.endpoint) return undefined;
  for (const edge of seed.edges ?? []) {
    const withModule = edge.routes.find((r) => r.backend !== undefined);
    const backendId = seed.backends?.find((b) => b !== withModule?.backend?.backendId);
    if (withModule && backendId) {
      return {
        tunnelId,
        agentTunnelId: agent.id,
        endpointId: agent.endpoint.id,
        edgeId: edge.id,
        routeId: withModule.id,
        backendId,
      };
    }
  }
  return undefined;
}
