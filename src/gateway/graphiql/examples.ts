// The example operations: GraphiQL's tabs, the README's examples (a test keeps them equal), the
// documents GraphQL Code Generator and .graphqlrc.yml read (the /* GraphQL */ templates below).
// They live in the source so a build carries them; nothing here reads files or knows the stand-in.
import type { ExampleIds } from './example-ids';
import { GRAPH_EXAMPLES } from './graph-examples';
import { LIVE_EXAMPLES } from './live-examples';

export interface ExampleOperation {
  readonly name: string;
  readonly document: string;
  readonly variables: (ids: ExampleIds) => Record<string, unknown>;
}

const route = (ids: ExampleIds) => ({ edgeId: ids.edgeId, routeId: ids.routeId });

/** In GraphiQL's tab order: the provider's current model (endpoints, agents) first, then the deprecated `/tunnels` list and the read-only edges. */
export const EXAMPLE_OPERATIONS: readonly ExampleOperation[] = [
  {
    name: 'Endpoints',
    variables: () => ({ first: 8, filter: { types: ['AGENT', 'CLOUD'] } }),
    document: /* GraphQL */ `# Endpoints, newest first, filtered upstream; an agent endpoint's tunnel joined (2 upstream calls here; up to 10 predicted).
query Endpoints($first: Int = 20, $after: String, $filter: EndpointFilter) {
  endpoints(first: $first, after: $after, filter: $filter) {
    nodes {
      id
      url
      type
      typeName
      bindings
      trafficPolicy
      tunnel {
        node {
          ... on Tunnel {
            id
            region
            forwardsTo
          }
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`,
  },
  {
    name: 'Agents',
    variables: () => ({ first: 10 }),
    document: /* GraphQL */ `# Online agents; endpoints with their agent, reserved domain and TCP address joined (one call per list and per kind).
query Agents($first: Int = 20) {
  tunnelSessions(first: $first) {
    nodes { id os agentVersion region ip startedAt }
  }
  endpoints(first: $first) {
    nodes {
      id
      url
      tunnelSession { node { ... on TunnelSession { id os agentVersion } } }
      domain { node { ... on ReservedDomain { id domain cnameTarget } } }
      tcpAddr { node { ... on ReservedAddress { id addr } } }
    }
  }
}
`,
  },
  {
    name: 'CreateEndpoint',
    variables: () => ({
      url: 'https://new-app.example.com',
      trafficPolicy:
        'on_http_request:\n  - actions:\n      - type: custom-response\n        config:\n          status_code: 200\n',
    }),
    document: /* GraphQL */ `# Creates a cloud endpoint with its Traffic Policy. Expected failures (a taken URL, a bad policy) are data.
mutation CreateEndpoint($url: String!, $trafficPolicy: String!, $description: String) {
  createCloudEndpoint(input: { url: $url, trafficPolicy: $trafficPolicy, description: $description }) {
    __typename
    ... on CreateCloudEndpointPayload {
      endpoint {
        id
        url
        type
        trafficPolicy
        createdAt
      }
    }
    ... on InvalidInputError {
      code
      message
      field
    }
  }
}
`,
  },
  {
    name: 'TunnelsPage',
    variables: () => ({ first: 5 }),
    document: /* GraphQL */ `# A page of online tunnels, newest first; pass pageInfo.endCursor as $after for the next page.
query TunnelsPage($first: Int = 20, $after: String) {
  tunnels(first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        publicUrl
        proto
        region
        startedAt
        forwardsTo
        metadata
        labels {
          name
          value
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`,
  },
  {
    name: 'OneTunnel',
    variables: (ids) => ({ id: ids.tunnelId }),
    document: /* GraphQL */ `# One tunnel by its ngrok id (tn_…); null when no online tunnel has it.
query OneTunnel($id: ID!) {
  tunnel(id: $id) {
    id
    publicUrl
    proto
    region
    startedAt
    forwardsTo
    metadata
    tunnelSession {
      id
      uri
    }
    endpoint {
      id
      uri
    }
    backends {
      id
      uri
    }
    labels {
      name
      value
    }
  }
}
`,
  },
  {
    name: 'ByIds',
    variables: (ids) => ({ id: ids.agentTunnelId, ids: [ids.tunnelId, ids.endpointId] }),
    document: /* GraphQL */ `# Any object by id: the type comes from the id's prefix; ids of types this schema does not hold are null.
query ByIds($id: ID!, $ids: [ID!]!) {
  node(id: $id) {
    __typename
    id
    ... on Tunnel {
      region
    }
  }
  nodes(ids: $ids) {
    __typename
    id
  }
}
`,
  },
  {
    name: 'BackendModule',
    variables: route,
    document: /* GraphQL */ `# The backend module of an HTTPS edge route; null when the route has none.
query BackendModule($edgeId: ID!, $routeId: ID!) {
  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {
    edgeId
    routeId
    enabled
    backend {
      id
      uri
    }
  }
}
`,
  },
  {
    name: 'ReplaceBackend',
    variables: (ids) => ({ ...route(ids), backendId: ids.backendId, enabled: true }),
    document: /* GraphQL */ `# Attaches a backend to an HTTPS edge route, replacing its module. Expected failures are data.
mutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {
  replaceHttpsEdgeRouteBackend(
    input: { edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled }
  ) {
    __typename
    ... on ReplaceHttpsEdgeRouteBackendPayload {
      backendModule {
        edgeId
        routeId
        enabled
        backend {
          id
          uri
        }
      }
    }
    ... on NotFoundError {
      code
      message
      id
    }
    ... on InvalidInputError {
      code
      message
      field
    }
  }
}
`,
  },
  {
    name: 'DeleteBackend',
    variables: route,
    document: /* GraphQL */ `# Detaches the backend module from an HTTPS edge route. Expected failures are data.
mutation DeleteBackend($edgeId: ID!, $routeId: ID!) {
  deleteHttpsEdgeRouteBackend(input: { edgeId: $edgeId, routeId: $routeId }) {
    __typename
    ... on DeleteHttpsEdgeRouteBackendPayload {
      edgeId
      routeId
    }
    ... on NotFoundError {
      code
      message
      id
    }
    ... on InvalidInputError {
      code
      message
      field
    }
  }
}
`,
  },
  ...GRAPH_EXAMPLES,
  ...LIVE_EXAMPLES,
];

/** @internal test seam: The example operation of that name (tests, recipes); throws for a name that is not one. */
export function exampleOperation(name: string): ExampleOperation {
  const found = EXAMPLE_OPERATIONS.find((op) => op.name === name);
  if (!found) throw new Error(`no example operation named ${name}`);
  return found;
}
