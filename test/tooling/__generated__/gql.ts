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
    "query BackendModule($edgeId: ID!, $routeId: ID!) {\n  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {\n    edgeId\n    routeId\n    enabled\n    backend {\n      id\n      uri\n    }\n  }\n}": typeof types.BackendModuleDocument,
    "mutation DeleteBackend($edgeId: ID!, $routeId: ID!) {\n  deleteHttpsEdgeRouteBackend(input: {edgeId: $edgeId, routeId: $routeId}) {\n    __typename\n    ... on DeleteHttpsEdgeRouteBackendPayload {\n      edgeId\n      routeId\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}": typeof types.DeleteBackendDocument,
    "query OneTunnel($id: ID!) {\n  tunnel(id: $id) {\n    id\n    publicUrl\n    proto\n    region\n    startedAt\n    forwardsTo\n    metadata\n    tunnelSession {\n      id\n      uri\n    }\n    endpoint {\n      id\n      uri\n    }\n    backends {\n      id\n      uri\n    }\n    labels {\n      name\n      value\n    }\n  }\n}": typeof types.OneTunnelDocument,
    "mutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {\n  replaceHttpsEdgeRouteBackend(\n    input: {edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled}\n  ) {\n    __typename\n    ... on ReplaceHttpsEdgeRouteBackendPayload {\n      backendModule {\n        edgeId\n        routeId\n        enabled\n        backend {\n          id\n          uri\n        }\n      }\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}": typeof types.ReplaceBackendDocument,
    "query TunnelsPage($first: Int = 20, $after: String) {\n  tunnels(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        id\n        publicUrl\n        proto\n        region\n        startedAt\n        forwardsTo\n        metadata\n        labels {\n          name\n          value\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": typeof types.TunnelsPageDocument,
};
const documents: Documents = {
    "query BackendModule($edgeId: ID!, $routeId: ID!) {\n  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {\n    edgeId\n    routeId\n    enabled\n    backend {\n      id\n      uri\n    }\n  }\n}": types.BackendModuleDocument,
    "mutation DeleteBackend($edgeId: ID!, $routeId: ID!) {\n  deleteHttpsEdgeRouteBackend(input: {edgeId: $edgeId, routeId: $routeId}) {\n    __typename\n    ... on DeleteHttpsEdgeRouteBackendPayload {\n      edgeId\n      routeId\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}": types.DeleteBackendDocument,
    "query OneTunnel($id: ID!) {\n  tunnel(id: $id) {\n    id\n    publicUrl\n    proto\n    region\n    startedAt\n    forwardsTo\n    metadata\n    tunnelSession {\n      id\n      uri\n    }\n    endpoint {\n      id\n      uri\n    }\n    backends {\n      id\n      uri\n    }\n    labels {\n      name\n      value\n    }\n  }\n}": types.OneTunnelDocument,
    "mutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {\n  replaceHttpsEdgeRouteBackend(\n    input: {edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled}\n  ) {\n    __typename\n    ... on ReplaceHttpsEdgeRouteBackendPayload {\n      backendModule {\n        edgeId\n        routeId\n        enabled\n        backend {\n          id\n          uri\n        }\n      }\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}": types.ReplaceBackendDocument,
    "query TunnelsPage($first: Int = 20, $after: String) {\n  tunnels(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        id\n        publicUrl\n        proto\n        region\n        startedAt\n        forwardsTo\n        metadata\n        labels {\n          name\n          value\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": types.TunnelsPageDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query BackendModule($edgeId: ID!, $routeId: ID!) {\n  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {\n    edgeId\n    routeId\n    enabled\n    backend {\n      id\n      uri\n    }\n  }\n}"): typeof import('./graphql').BackendModuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteBackend($edgeId: ID!, $routeId: ID!) {\n  deleteHttpsEdgeRouteBackend(input: {edgeId: $edgeId, routeId: $routeId}) {\n    __typename\n    ... on DeleteHttpsEdgeRouteBackendPayload {\n      edgeId\n      routeId\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}"): typeof import('./graphql').DeleteBackendDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OneTunnel($id: ID!) {\n  tunnel(id: $id) {\n    id\n    publicUrl\n    proto\n    region\n    startedAt\n    forwardsTo\n    metadata\n    tunnelSession {\n      id\n      uri\n    }\n    endpoint {\n      id\n      uri\n    }\n    backends {\n      id\n      uri\n    }\n    labels {\n      name\n      value\n    }\n  }\n}"): typeof import('./graphql').OneTunnelDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {\n  replaceHttpsEdgeRouteBackend(\n    input: {edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled}\n  ) {\n    __typename\n    ... on ReplaceHttpsEdgeRouteBackendPayload {\n      backendModule {\n        edgeId\n        routeId\n        enabled\n        backend {\n          id\n          uri\n        }\n      }\n    }\n    ... on NotFoundError {\n      code\n      message\n      id\n    }\n    ... on InvalidInputError {\n      code\n      message\n      field\n    }\n  }\n}"): typeof import('./graphql').ReplaceBackendDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TunnelsPage($first: Int = 20, $after: String) {\n  tunnels(first: $first, after: $after) {\n    edges {\n      cursor\n      node {\n        id\n        publicUrl\n        proto\n        region\n        startedAt\n        forwardsTo\n        metadata\n        labels {\n          name\n          value\n        }\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"): typeof import('./graphql').TunnelsPageDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
