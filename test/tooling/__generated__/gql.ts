/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "# A page of online tunnels, newest first; pass pageInfo.endCursor as $after for the next page.\nquery TunnelsPage($first: Int = 20, $after: String) {\n  tunnels(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        id\n        publicUrl\n        proto\n        region\n        startedAt\n        forwardsTo\n        metadata\n        labels {\n          name\n          value\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n": typeof types.TunnelsPageDocument,
    "# One tunnel by its ngrok id (tn_…); null when no online tunnel has it.\nquery OneTunnel($id: ID!) {\n  tunnel(id: $id) {\n    id\n    publicUrl\n    proto\n    region\n    startedAt\n    forwardsTo\n    metadata\n    tunnelSession {\n      id\n      uri\n    }\n    endpoint {\n      id\n      uri\n    }\n    backends {\n      id\n      uri\n    }\n    labels {\n      name\n      value\n    }\n  }\n}\n": typeof types.OneTunnelDocument,
    "# Any object by id: the type comes from the id's prefix; ids of types this schema does not hold are null.\nquery ByIds($id: ID!, $ids: [ID!]!) {\n  node(id: $id) {\n    __typename\n    id\n    ... on Tunnel {\n      region\n    }\n  }\n  nodes(ids: $ids) {\n    __typename\n    id\n  }\n}\n": typeof types.ByIdsDocument,
    "# The backend module of an HTTPS edge route; null when the route has none.\nquery BackendModule($edgeId: ID!, $routeId: ID!) {\n  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {\n    edgeId\n    routeId\n    enabled\n    backend {\n      id\n      uri\n    }\n  }\n}\n": typeof types.BackendModuleDocument,
    "# Attaches a backend to an HTTPS edge route, replacing its module. Expected failures are data.\nmutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {\n  replaceHttpsEdgeRouteBackend(\n    input: { edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled }\n  ) {\n    __typename\n    ... on ReplaceHttpsEdgeRouteBackendPayload {\n      backendModule {\n        edgeId\n        routeId\n        enabled\n        backend {\n          id\n          uri\n        }\n      }\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n": typeof types.ReplaceBackendDocument,
    "# Detaches the backend module from an HTTPS edge route. Expected failures are data.\nmutation DeleteBackend($edgeId: ID!, $routeId: ID!) {\n  deleteHttpsEdgeRouteBackend(input: { edgeId: $edgeId, routeId: $routeId }) {\n    __typename\n    ... on DeleteHttpsEdgeRouteBackendPayload {\n      edgeId\n      routeId\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n": typeof types.DeleteBackendDocument,
    "# Endpoints, newest first, filtered upstream; an agent endpoint's tunnel joined (2 upstream calls in all).\nquery Endpoints($first: Int = 20, $after: String, $filter: EndpointFilter) {\n  endpoints(first: $first, after: $after, filter: $filter) {\n    nodes {\n      id\n      url\n      type\n      typeName\n      bindings\n      trafficPolicy\n      tunnel {\n        node {\n          ... on Tunnel {\n            id\n            region\n            forwardsTo\n          }\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n": typeof types.EndpointsDocument,
    "# Creates a cloud endpoint with its Traffic Policy. Expected failures (a taken URL, a bad policy) are data.\nmutation CreateEndpoint($url: String!, $trafficPolicy: String!, $description: String) {\n  createCloudEndpoint(input: { url: $url, trafficPolicy: $trafficPolicy, description: $description }) {\n    __typename\n    ... on CreateCloudEndpointPayload {\n      endpoint {\n        id\n        url\n        type\n        trafficPolicy\n        createdAt\n      }\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n": typeof types.CreateEndpointDocument,
    "# Live: an ONLINE event for every tunnel online now (includeCurrent), then each tunnel that comes online or goes offline.\nsubscription TunnelEvents($includeCurrent: Boolean = false) {\n  tunnelEvents(includeCurrent: $includeCurrent) {\n    kind\n    tunnelId\n    observedAt\n    tunnel {\n      id\n      publicUrl\n      proto\n      region\n    }\n  }\n}\n": typeof types.TunnelEventsDocument,
    "# Live: an ONLINE event for every endpoint listed now (includeCurrent), then each one that appears, changes (UPDATED) or goes.\nsubscription EndpointEvents($includeCurrent: Boolean = false) {\n  endpointEvents(includeCurrent: $includeCurrent) {\n    kind\n    endpointId\n    observedAt\n    endpoint {\n      id\n      url\n      type\n      updatedAt\n    }\n  }\n}\n": typeof types.EndpointEventsDocument,
};
const documents: Documents = {
    "# A page of online tunnels, newest first; pass pageInfo.endCursor as $after for the next page.\nquery TunnelsPage($first: Int = 20, $after: String) {\n  tunnels(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        id\n        publicUrl\n        proto\n        region\n        startedAt\n        forwardsTo\n        metadata\n        labels {\n          name\n          value\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n": types.TunnelsPageDocument,
    "# One tunnel by its ngrok id (tn_…); null when no online tunnel has it.\nquery OneTunnel($id: ID!) {\n  tunnel(id: $id) {\n    id\n    publicUrl\n    proto\n    region\n    startedAt\n    forwardsTo\n    metadata\n    tunnelSession {\n      id\n      uri\n    }\n    endpoint {\n      id\n      uri\n    }\n    backends {\n      id\n      uri\n    }\n    labels {\n      name\n      value\n    }\n  }\n}\n": types.OneTunnelDocument,
    "# Any object by id: the type comes from the id's prefix; ids of types this schema does not hold are null.\nquery ByIds($id: ID!, $ids: [ID!]!) {\n  node(id: $id) {\n    __typename\n    id\n    ... on Tunnel {\n      region\n    }\n  }\n  nodes(ids: $ids) {\n    __typename\n    id\n  }\n}\n": types.ByIdsDocument,
    "# The backend module of an HTTPS edge route; null when the route has none.\nquery BackendModule($edgeId: ID!, $routeId: ID!) {\n  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {\n    edgeId\n    routeId\n    enabled\n    backend {\n      id\n      uri\n    }\n  }\n}\n": types.BackendModuleDocument,
    "# Attaches a backend to an HTTPS edge route, replacing its module. Expected failures are data.\nmutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {\n  replaceHttpsEdgeRouteBackend(\n    input: { edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled }\n  ) {\n    __typename\n    ... on ReplaceHttpsEdgeRouteBackendPayload {\n      backendModule {\n        edgeId\n        routeId\n        enabled\n        backend {\n          id\n          uri\n        }\n      }\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n": types.ReplaceBackendDocument,
    "# Detaches the backend module from an HTTPS edge route. Expected failures are data.\nmutation DeleteBackend($edgeId: ID!, $routeId: ID!) {\n  deleteHttpsEdgeRouteBackend(input: { edgeId: $edgeId, routeId: $routeId }) {\n    __typename\n    ... on DeleteHttpsEdgeRouteBackendPayload {\n      edgeId\n      routeId\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n": types.DeleteBackendDocument,
    "# Endpoints, newest first, filtered upstream; an agent endpoint's tunnel joined (2 upstream calls in all).\nquery Endpoints($first: Int = 20, $after: String, $filter: EndpointFilter) {\n  endpoints(first: $first, after: $after, filter: $filter) {\n    nodes {\n      id\n      url\n      type\n      typeName\n      bindings\n      trafficPolicy\n      tunnel {\n        node {\n          ... on Tunnel {\n            id\n            region\n            forwardsTo\n          }\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n": types.EndpointsDocument,
    "# Creates a cloud endpoint with its Traffic Policy. Expected failures (a taken URL, a bad policy) are data.\nmutation CreateEndpoint($url: String!, $trafficPolicy: String!, $description: String) {\n  createCloudEndpoint(input: { url: $url, trafficPolicy: $trafficPolicy, description: $description }) {\n    __typename\n    ... on CreateCloudEndpointPayload {\n      endpoint {\n        id\n        url\n        type\n        trafficPolicy\n        createdAt\n      }\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n": types.CreateEndpointDocument,
    "# Live: an ONLINE event for every tunnel online now (includeCurrent), then each tunnel that comes online or goes offline.\nsubscription TunnelEvents($includeCurrent: Boolean = false) {\n  tunnelEvents(includeCurrent: $includeCurrent) {\n    kind\n    tunnelId\n    observedAt\n    tunnel {\n      id\n      publicUrl\n      proto\n      region\n    }\n  }\n}\n": types.TunnelEventsDocument,
    "# Live: an ONLINE event for every endpoint listed now (includeCurrent), then each one that appears, changes (UPDATED) or goes.\nsubscription EndpointEvents($includeCurrent: Boolean = false) {\n  endpointEvents(includeCurrent: $includeCurrent) {\n    kind\n    endpointId\n    observedAt\n    endpoint {\n      id\n      url\n      type\n      updatedAt\n    }\n  }\n}\n": types.EndpointEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# A page of online tunnels, newest first; pass pageInfo.endCursor as $after for the next page.\nquery TunnelsPage($first: Int = 20, $after: String) {\n  tunnels(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        id\n        publicUrl\n        proto\n        region\n        startedAt\n        forwardsTo\n        metadata\n        labels {\n          name\n          value\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n"): typeof import('./graphql').TunnelsPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# One tunnel by its ngrok id (tn_…); null when no online tunnel has it.\nquery OneTunnel($id: ID!) {\n  tunnel(id: $id) {\n    id\n    publicUrl\n    proto\n    region\n    startedAt\n    forwardsTo\n    metadata\n    tunnelSession {\n      id\n      uri\n    }\n    endpoint {\n      id\n      uri\n    }\n    backends {\n      id\n      uri\n    }\n    labels {\n      name\n      value\n    }\n  }\n}\n"): typeof import('./graphql').OneTunnelDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# Any object by id: the type comes from the id's prefix; ids of types this schema does not hold are null.\nquery ByIds($id: ID!, $ids: [ID!]!) {\n  node(id: $id) {\n    __typename\n    id\n    ... on Tunnel {\n      region\n    }\n  }\n  nodes(ids: $ids) {\n    __typename\n    id\n  }\n}\n"): typeof import('./graphql').ByIdsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# The backend module of an HTTPS edge route; null when the route has none.\nquery BackendModule($edgeId: ID!, $routeId: ID!) {\n  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {\n    edgeId\n    routeId\n    enabled\n    backend {\n      id\n      uri\n    }\n  }\n}\n"): typeof import('./graphql').BackendModuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# Attaches a backend to an HTTPS edge route, replacing its module. Expected failures are data.\nmutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {\n  replaceHttpsEdgeRouteBackend(\n    input: { edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled }\n  ) {\n    __typename\n    ... on ReplaceHttpsEdgeRouteBackendPayload {\n      backendModule {\n        edgeId\n        routeId\n        enabled\n        backend {\n          id\n          uri\n        }\n      }\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n"): typeof import('./graphql').ReplaceBackendDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# Detaches the backend module from an HTTPS edge route. Expected failures are data.\nmutation DeleteBackend($edgeId: ID!, $routeId: ID!) {\n  deleteHttpsEdgeRouteBackend(input: { edgeId: $edgeId, routeId: $routeId }) {\n    __typename\n    ... on DeleteHttpsEdgeRouteBackendPayload {\n      edgeId\n      routeId\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n"): typeof import('./graphql').DeleteBackendDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# Endpoints, newest first, filtered upstream; an agent endpoint's tunnel joined (2 upstream calls in all).\nquery Endpoints($first: Int = 20, $after: String, $filter: EndpointFilter) {\n  endpoints(first: $first, after: $after, filter: $filter) {\n    nodes {\n      id\n      url\n      type\n      typeName\n      bindings\n      trafficPolicy\n      tunnel {\n        node {\n          ... on Tunnel {\n            id\n            region\n            forwardsTo\n          }\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}\n"): typeof import('./graphql').EndpointsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# Creates a cloud endpoint with its Traffic Policy. Expected failures (a taken URL, a bad policy) are data.\nmutation CreateEndpoint($url: String!, $trafficPolicy: String!, $description: String) {\n  createCloudEndpoint(input: { url: $url, trafficPolicy: $trafficPolicy, description: $description }) {\n    __typename\n    ... on CreateCloudEndpointPayload {\n      endpoint {\n        id\n        url\n        type\n        trafficPolicy\n        createdAt\n      }\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}\n"): typeof import('./graphql').CreateEndpointDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# Live: an ONLINE event for every tunnel online now (includeCurrent), then each tunnel that comes online or goes offline.\nsubscription TunnelEvents($includeCurrent: Boolean = false) {\n  tunnelEvents(includeCurrent: $includeCurrent) {\n    kind\n    tunnelId\n    observedAt\n    tunnel {\n      id\n      publicUrl\n      proto\n      region\n    }\n  }\n}\n"): typeof import('./graphql').TunnelEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "# Live: an ONLINE event for every endpoint listed now (includeCurrent), then each one that appears, changes (UPDATED) or goes.\nsubscription EndpointEvents($includeCurrent: Boolean = false) {\n  endpointEvents(includeCurrent: $includeCurrent) {\n    kind\n    endpointId\n    observedAt\n    endpoint {\n      id\n      url\n      type\n      updatedAt\n    }\n  }\n}\n"): typeof import('./graphql').EndpointEventsDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
