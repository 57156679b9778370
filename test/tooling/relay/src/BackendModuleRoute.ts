// Relay: BackendModule has no id, so Relay keeps the module a mutation returns apart from the one a
// query read; the updater points the query's field at the new module.
import type { RecordSourceSelectorProxy } from 'relay-runtime';

/** Stands in for `graphql` from react-relay: the compiler reads the tagged templates. */
const graphql = (strings: TemplateStringsArray): string => strings.join('');

export const backendModuleQuery = graphql`
  query BackendModuleRouteQuery($edgeId: ID!, $routeId: ID!) {
    httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) {
      edgeId
      routeId
      enabled
      backend {
        id
      }
    }
  }
`;

export const replaceBackendMutation = graphql`
  mutation BackendModuleRouteReplaceMutation($input: ReplaceHttpsEdgeRouteBackendInput!) {
    replaceHttpsEdgeRouteBackend(input: $input) {
      __typename
      ... on ReplaceHttpsEdgeRouteBackendPayload {
        backendModule {
          edgeId
          routeId
          enabled
          backend {
            id
          }
        }
      }
    }
  }
`;

export const replaceBackendUpdater =
  (route: { edgeId: string; routeId: string }) => (store: RecordSourceSelectorProxy) => {
    const module = store.getRootField('replaceHttpsEdgeRouteBackend')?.getLinkedRecord('backendModule');
    if (module) store.getRoot().setLinkedRecord(module, 'httpsEdgeRouteBackend', route);
  };
