// The schema's interfaces and unions with their members, for fragment matching in client caches
// (test/tooling/client-caches.test.ts checks this against schema/schema.graphql).
export const possibleTypes = {
  Node: [
    'Credential',
    'Endpoint',
    'FailoverBackend',
    'HttpResponseBackend',
    'HttpsEdge',
    'ReservedAddress',
    'ReservedDomain',
    'StaticBackend',
    'TlsCertificate',
    'Tunnel',
    'TunnelGroupBackend',
    'TunnelSession',
    'WeightedBackend',
  ],
  Error: ['InvalidInputError', 'NotFoundError'],
  ReplaceHttpsEdgeRouteBackendResult: [
    'InvalidInputError',
    'NotFoundError',
    'ReplaceHttpsEdgeRouteBackendPayload',
  ],
  DeleteHttpsEdgeRouteBackendResult: [
    'DeleteHttpsEdgeRouteBackendPayload',
    'InvalidInputError',
    'NotFoundError',
  ],
  CreateCloudEndpointResult: ['CreateCloudEndpointPayload', 'InvalidInputError'],
  UpdateEndpointResult: ['InvalidInputError', 'NotFoundError', 'UpdateEndpointPayload'],
  DeleteEndpointResult: ['DeleteEndpointPayload', 'InvalidInputError', 'NotFoundError'],
  CommandTunnelSessionResult: ['CommandTunnelSessionPayload', 'InvalidInputError', 'NotFoundError'],
};
