/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** What happened to an endpoint between two observations of the account's endpoints. */
export type EndpointEventKind =
  /** The endpoint was in the previous observation and is no longer listed. */
  | 'OFFLINE'
  /** The endpoint is listed and was not in the previous observation (with includeCurrent: it is listed now). */
  | 'ONLINE'
  /** The endpoint is still listed and its updatedAt changed. */
  | 'UPDATED';

/**
 * Server-side filter: every set field must match (AND); a list matches any of its values (OR).
 * The gateway compiles it into the upstream's own filter expression, so a filtered page costs the
 * same upstream calls as an unfiltered one.
 */
export type EndpointFilter = {
  /** Endpoints created at or after this instant. */
  createdAfter?: string | null | undefined;
  /** Any of these types. */
  types?: Array<EndpointType> | null | undefined;
  /** Exact URLs (at most 100). */
  urls?: Array<string> | null | undefined;
};

/** Where an endpoint lives: started by an agent (lives as long as the agent) or kept in the cloud. */
export type EndpointType =
  /** Started by an agent; lives as long as the agent. */
  | 'AGENT'
  /** Kept in the cloud until deleted; serves its Traffic Policy. */
  | 'CLOUD';

/** What happened to a tunnel between two observations of the account's tunnel list. */
export type TunnelEventKind =
  /** The tunnel was in the previous observation and is no longer online. */
  | 'OFFLINE'
  /** The tunnel is online and was not in the previous observation (with includeCurrent: it is online now). */
  | 'ONLINE';

/** The protocol of an agent-initiated tunnel. */
export type TunnelProtocol =
  /** HTTP */
  | 'HTTP'
  /** HTTPS */
  | 'HTTPS'
  /** Raw TCP */
  | 'TCP'
  /** TLS passthrough */
  | 'TLS';

/** What happened to an agent (tunnel session) between two observations of the account's online agents. */
export type TunnelSessionEventKind =
  /** The session was in the previous observation and is no longer online. */
  | 'OFFLINE'
  /** The session is online and was not in the previous observation (with includeCurrent: it is online now). */
  | 'ONLINE';

export type EndpointsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: EndpointFilter | null | undefined;
}>;


export type EndpointsQuery = { endpoints: { nodes: Array<{ id: string, url: string, type: EndpointType | null, typeName: string, bindings: Array<string>, trafficPolicy: string | null, tunnel: { node:
          | { id: string, region: string, forwardsTo: string | null }
          | Record<PropertyKey, never>
         | null } | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type AgentsQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type AgentsQuery = { tunnelSessions: { nodes: Array<{ id: string, os: string | null, agentVersion: string | null, region: string | null, ip: string | null, startedAt: string }> }, endpoints: { nodes: Array<{ id: string, url: string, tunnelSession: { node:
          | { id: string, os: string | null, agentVersion: string | null }
          | Record<PropertyKey, never>
         | null } | null, domain: { node:
          | { id: string, domain: string, cnameTarget: string | null }
          | Record<PropertyKey, never>
         | null } | null, tcpAddr: { node:
          | { id: string, addr: string }
          | Record<PropertyKey, never>
         | null } | null }> } };

export type CreateEndpointMutationVariables = Exact<{
  url: string;
  trafficPolicy: string;
  description?: string | null | undefined;
}>;


export type CreateEndpointMutation = { createCloudEndpoint:
    | { __typename: 'CreateCloudEndpointPayload', endpoint: { id: string, url: string, type: EndpointType | null, trafficPolicy: string | null, createdAt: string } }
    | { __typename: 'InvalidInputError', code: string, message: string, field: string | null }
   };

export type TunnelsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type TunnelsPageQuery = { tunnels: { edges: Array<{ cursor: string, node: { id: string, publicUrl: string | null, proto: TunnelProtocol | null, region: string, startedAt: string, forwardsTo: string | null, metadata: string | null, labels: Array<{ name: string, value: string }> | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type OneTunnelQueryVariables = Exact<{
  id: string | number;
}>;


export type OneTunnelQuery = { tunnel: { id: string, publicUrl: string | null, proto: TunnelProtocol | null, region: string, startedAt: string, forwardsTo: string | null, metadata: string | null, tunnelSession: { id: string, uri: string }, endpoint: { id: string, uri: string } | null, backends: Array<{ id: string, uri: string }> | null, labels: Array<{ name: string, value: string }> | null } | null };

export type ByIdsQueryVariables = Exact<{
  id: string | number;
  ids: Array<string | number> | string | number;
}>;


export type ByIdsQuery = { node:
    | { __typename: 'Credential', id: string }
    | { __typename: 'Endpoint', id: string }
    | { __typename: 'FailoverBackend', id: string }
    | { __typename: 'HttpResponseBackend', id: string }
    | { __typename: 'HttpsEdge', id: string }
    | { __typename: 'ReservedAddress', id: string }
    | { __typename: 'ReservedDomain', id: string }
    | { __typename: 'StaticBackend', id: string }
    | { __typename: 'TlsCertificate', id: string }
    | { __typename: 'Tunnel', region: string, id: string }
    | { __typename: 'TunnelGroupBackend', id: string }
    | { __typename: 'TunnelSession', id: string }
    | { __typename: 'WeightedBackend', id: string }
   | null, nodes: Array<
    | { __typename: 'Credential', id: string }
    | { __typename: 'Endpoint', id: string }
    | { __typename: 'FailoverBackend', id: string }
    | { __typename: 'HttpResponseBackend', id: string }
    | { __typename: 'HttpsEdge', id: string }
    | { __typename: 'ReservedAddress', id: string }
    | { __typename: 'ReservedDomain', id: string }
    | { __typename: 'StaticBackend', id: string }
    | { __typename: 'TlsCertificate', id: string }
    | { __typename: 'Tunnel', id: string }
    | { __typename: 'TunnelGroupBackend', id: string }
    | { __typename: 'TunnelSession', id: string }
    | { __typename: 'WeightedBackend', id: string }
   | null> };

export type BackendModuleQueryVariables = Exact<{
  edgeId: string | number;
  routeId: string | number;
}>;


export type BackendModuleQuery = { httpsEdgeRouteBackend: { edgeId: string, routeId: string, enabled: boolean, backend: { id: string, uri: string } | null } | null };

export type ReplaceBackendMutationVariables = Exact<{
  edgeId: string | number;
  routeId: string | number;
  backendId: string | number;
  enabled?: boolean | null | undefined;
}>;


export type ReplaceBackendMutation = { replaceHttpsEdgeRouteBackend:
    | { __typename: 'InvalidInputError', code: string, message: string, field: string | null }
    | { __typename: 'NotFoundError', code: string, message: string, id: string | null }
    | { __typename: 'ReplaceHttpsEdgeRouteBackendPayload', backendModule: { edgeId: string, routeId: string, enabled: boolean, backend: { id: string, uri: string } | null } }
   };

export type DeleteBackendMutationVariables = Exact<{
  edgeId: string | number;
  routeId: string | number;
}>;


export type DeleteBackendMutation = { deleteHttpsEdgeRouteBackend:
    | { __typename: 'DeleteHttpsEdgeRouteBackendPayload', edgeId: string, routeId: string }
    | { __typename: 'InvalidInputError', code: string, message: string, field: string | null }
    | { __typename: 'NotFoundError', code: string, message: string, id: string | null }
   };

export type EdgeRoutesQueryVariables = Exact<{
  id: string | number;
}>;


export type EdgeRoutesQuery = { httpsEdge: { id: string, hostports: Array<string>, routes: Array<{ matchType: string, match: string, backend: { enabled: boolean, backend: { id: string, node:
            | { __typename: 'Credential' }
            | { __typename: 'Endpoint' }
            | { __typename: 'FailoverBackend', backends: Array<{ id: string }> }
            | { __typename: 'HttpResponseBackend', statusCode: number, body: string | null }
            | { __typename: 'HttpsEdge' }
            | { __typename: 'ReservedAddress' }
            | { __typename: 'ReservedDomain' }
            | { __typename: 'StaticBackend', address: string, tlsEnabled: boolean }
            | { __typename: 'TlsCertificate' }
            | { __typename: 'Tunnel' }
            | { __typename: 'TunnelGroupBackend', labels: Array<{ name: string, value: string }>, tunnels: Array<{ id: string }> }
            | { __typename: 'TunnelSession' }
            | { __typename: 'WeightedBackend', backends: Array<{ weight: number, backend: { id: string } }> }
           | null } | null } | null }> } | null };

export type EndpointEventsSubscriptionVariables = Exact<{
  includeCurrent?: boolean | null | undefined;
}>;


export type EndpointEventsSubscription = { endpointEvents: { kind: EndpointEventKind, endpointId: string, observedAt: string, endpoint: { id: string, url: string, type: EndpointType | null, updatedAt: string | null } } };

export type AgentEventsSubscriptionVariables = Exact<{
  includeCurrent?: boolean | null | undefined;
}>;


export type AgentEventsSubscription = { tunnelSessionEvents: { kind: TunnelSessionEventKind, tunnelSessionId: string, observedAt: string, tunnelSession: { id: string, os: string | null, agentVersion: string | null, region: string | null, startedAt: string } } };

export type TunnelEventsSubscriptionVariables = Exact<{
  includeCurrent?: boolean | null | undefined;
}>;


export type TunnelEventsSubscription = { tunnelEvents: { kind: TunnelEventKind, tunnelId: string, observedAt: string, tunnel: { id: string, publicUrl: string | null, proto: TunnelProtocol | null, region: string } } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const EndpointsDocument = new TypedDocumentString(`
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
    `, {"hash":"sha256:3dd67d34f0600f45367c6b6259f3e33c29751797be74be5c3ec9f0ed54ed7c26"}) as unknown as TypedDocumentString<EndpointsQuery, EndpointsQueryVariables>;
export const AgentsDocument = new TypedDocumentString(`
    query Agents($first: Int = 20) {
  tunnelSessions(first: $first) {
    nodes {
      id
      os
      agentVersion
      region
      ip
      startedAt
    }
  }
  endpoints(first: $first) {
    nodes {
      id
      url
      tunnelSession {
        node {
          ... on TunnelSession {
            id
            os
            agentVersion
          }
        }
      }
      domain {
        node {
          ... on ReservedDomain {
            id
            domain
            cnameTarget
          }
        }
      }
      tcpAddr {
        node {
          ... on ReservedAddress {
            id
            addr
          }
        }
      }
    }
  }
}
    `, {"hash":"sha256:0ac52edd7b2a7331bba035637434141e74d92028731402fad009ffe8ed202e7d"}) as unknown as TypedDocumentString<AgentsQuery, AgentsQueryVariables>;
export const CreateEndpointDocument = new TypedDocumentString(`
    mutation CreateEndpoint($url: String!, $trafficPolicy: String!, $description: String) {
  createCloudEndpoint(
    input: {url: $url, trafficPolicy: $trafficPolicy, description: $description}
  ) {
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
    `, {"hash":"sha256:7bd4a4b734144ba255a01448c4abec552408795069159cc2e10e63a2c47897ca"}) as unknown as TypedDocumentString<CreateEndpointMutation, CreateEndpointMutationVariables>;
export const TunnelsPageDocument = new TypedDocumentString(`
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
    `, {"hash":"sha256:e1a038fca755826196bb2bb1bc57923e332ca8ae658202e098b62d95b8ad4c85"}) as unknown as TypedDocumentString<TunnelsPageQuery, TunnelsPageQueryVariables>;
export const OneTunnelDocument = new TypedDocumentString(`
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
    `, {"hash":"sha256:1829ace1dc5d514785ce6e28efda2bb565798c337760d2de22bd7696ad7fcb95"}) as unknown as TypedDocumentString<OneTunnelQuery, OneTunnelQueryVariables>;
export const ByIdsDocument = new TypedDocumentString(`
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
    `, {"hash":"sha256:975b5b2489bc48a2684ea7775751b6f8ef2bfca4ae6c6d0b009542d9f805ea5f"}) as unknown as TypedDocumentString<ByIdsQuery, ByIdsQueryVariables>;
export const BackendModuleDocument = new TypedDocumentString(`
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
    `, {"hash":"sha256:4351147be8d5ac17ace81d615b4328879a676e4ccf53711956edcce698abda7a"}) as unknown as TypedDocumentString<BackendModuleQuery, BackendModuleQueryVariables>;
export const ReplaceBackendDocument = new TypedDocumentString(`
    mutation ReplaceBackend($edgeId: ID!, $routeId: ID!, $backendId: ID!, $enabled: Boolean = true) {
  replaceHttpsEdgeRouteBackend(
    input: {edgeId: $edgeId, routeId: $routeId, backendId: $backendId, enabled: $enabled}
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
    `, {"hash":"sha256:2e12ba380355633d705ddf1cddd3ef3ba6186a444d9584e9ed99d3ddd870c930"}) as unknown as TypedDocumentString<ReplaceBackendMutation, ReplaceBackendMutationVariables>;
export const DeleteBackendDocument = new TypedDocumentString(`
    mutation DeleteBackend($edgeId: ID!, $routeId: ID!) {
  deleteHttpsEdgeRouteBackend(input: {edgeId: $edgeId, routeId: $routeId}) {
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
    `, {"hash":"sha256:ff866c5b814298687bd836183f2589468ef1238ec67865b678db64c7ee2fa19a"}) as unknown as TypedDocumentString<DeleteBackendMutation, DeleteBackendMutationVariables>;
export const EdgeRoutesDocument = new TypedDocumentString(`
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
            ... on TunnelGroupBackend {
              labels {
                name
                value
              }
              tunnels {
                id
              }
            }
            ... on FailoverBackend {
              backends {
                id
              }
            }
            ... on WeightedBackend {
              backends {
                weight
                backend {
                  id
                }
              }
            }
            ... on HttpResponseBackend {
              statusCode
              body
            }
            ... on StaticBackend {
              address
              tlsEnabled
            }
          }
        }
      }
    }
  }
}
    `, {"hash":"sha256:654109079e2004733681eb47cf9c3eb63086e1a2dfba8fb759f9deb0e09e830b"}) as unknown as TypedDocumentString<EdgeRoutesQuery, EdgeRoutesQueryVariables>;
export const EndpointEventsDocument = new TypedDocumentString(`
    subscription EndpointEvents($includeCurrent: Boolean = false) {
  endpointEvents(includeCurrent: $includeCurrent) {
    kind
    endpointId
    observedAt
    endpoint {
      id
      url
      type
      updatedAt
    }
  }
}
    `, {"hash":"sha256:eb7c4d7aea5abd6a2a058da8f0d4d0be99dc62233748fe970b6e28857dcadc6e"}) as unknown as TypedDocumentString<EndpointEventsSubscription, EndpointEventsSubscriptionVariables>;
export const AgentEventsDocument = new TypedDocumentString(`
    subscription AgentEvents($includeCurrent: Boolean = false) {
  tunnelSessionEvents(includeCurrent: $includeCurrent) {
    kind
    tunnelSessionId
    observedAt
    tunnelSession {
      id
      os
      agentVersion
      region
      startedAt
    }
  }
}
    `, {"hash":"sha256:bb59d7d153060d65a623e166ba210cdf397ddbaf52f6b6da7fd41e2da3f2c3c7"}) as unknown as TypedDocumentString<AgentEventsSubscription, AgentEventsSubscriptionVariables>;
export const TunnelEventsDocument = new TypedDocumentString(`
    subscription TunnelEvents($includeCurrent: Boolean = false) {
  tunnelEvents(includeCurrent: $includeCurrent) {
    kind
    tunnelId
    observedAt
    tunnel {
      id
      publicUrl
      proto
      region
    }
  }
}
    `, {"hash":"sha256:2f305dbf6b4d4126c1301c6e1369502424e24f57eac80997daa2436120d60051"}) as unknown as TypedDocumentString<TunnelEventsSubscription, TunnelEventsSubscriptionVariables>;