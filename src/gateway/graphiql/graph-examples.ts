// The account graph's example operations (GraphiQL's tabs after the queries and mutations of
// examples.ts, before the live ones): what an HTTPS edge routes to, its backends resolved.
import type { ExampleIds } from './example-ids';

/** In GraphiQL's tab order. */
export const GRAPH_EXAMPLES = [
  {
    name: 'EdgeRoutes',
    variables: (ids) => ({ id: ids.edgeId }),
    document: /* GraphQL */ `# What this HTTPS edge routes to: each route's path and its backend, resolved (one GET per backend).
query EdgeRoutes($id: ID!) {
  httpsEdge(id: $id) {
    id
    hostports
    routes {
      matchType
      match
      backend {
        enabled
        backend {
          id
          node {
            __typename
            ... on TunnelGroupBackend { labels { name value } tunnels { id } }
            ... on FailoverBackend { backends { id } }
            ... on WeightedBackend { backends { weight backend { id } } }
            ... on HttpResponseBackend { statusCode body }
            ... on StaticBackend { address tlsEnabled }
          }
        }
      }
    }
  }
}
`,
  },
] as const satisfies readonly {
  name: string;
  document: string;
  variables: (ids: ExampleIds) => Record<string, unknown>;
}[];
