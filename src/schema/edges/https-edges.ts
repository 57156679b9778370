// HTTPS edges: the HttpsEdge node with its routes (they come with the edge, each with its backend
// module: no call of their own), `httpsEdges` and `httpsEdge(id)`. Read-only: the provider shut
// Edges down; an account it no longer serves edges to lists none (ERR_NGROK_7008, the descriptor's).
import { HTTPS_EDGE, type HttpsEdge, type HttpsEdgeRoute, MOST_ROUTES_PER_EDGE } from '../../resources';
import { listedNodeRef, listedQueries } from '../account-graph/listed-nodes';
import { builder } from '../builder';
import { isNodeOf } from '../relay/node-ids';
import { upstreamCalls } from '../upstream-calls';
import { BackendModuleType } from './backend-modules';

const HttpsEdgeNode = listedNodeRef<HttpsEdge>(HTTPS_EDGE);

const HttpsEdgeRouteType = builder.objectRef<HttpsEdgeRoute>('HttpsEdgeRoute').implement({
  description: 'A route of an HTTPS edge (edghtsrt_).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The route id (edghtsrt_…).' }),
    edgeId: t.exposeID('edgeId', { description: 'The HTTPS edge it belongs to (edghts_…).' }),
    matchType: t.exposeString('matchType', {
      description: 'exact_path or path_prefix, as the upstream sends it.',
    }),
    match: t.exposeString('match', { description: 'The path matched, e.g. /api.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.exposeString('metadata', { nullable: true, description: 'User metadata.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    backend: t.field({
      type: BackendModuleType,
      nullable: true,
      description: 'Its backend module; null when the route has none.',
      // It came with the edge: no call.
      resolve: (route) =>
        route.backend?.backend ? { edgeId: route.edgeId, routeId: route.id, ...route.backend } : null,
    }),
  }),
});

HttpsEdgeNode.implement({
  description: "An HTTPS edge (edghts_): the provider's retired way to route a domain; read-only upstream.",
  isTypeOf: isNodeOf(HTTPS_EDGE),
  fields: (t) => ({
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.exposeString('metadata', { nullable: true, description: 'User metadata.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    hostports: t.exposeStringList('hostports', {
      description: 'The host:port pairs it serves, e.g. app.example.com:443.',
    }),
    routes: t.field({
      type: [HttpsEdgeRouteType],
      description: `Its routes, in the upstream's order (they come with the edge; the planner counts ${MOST_ROUTES_PER_EDGE} at most).`,
      ...upstreamCalls({ kind: 'embedded', most: MOST_ROUTES_PER_EDGE }),
      resolve: (edge) => edge.routes,
    }),
  }),
});

listedQueries(HttpsEdgeNode, {
  resource: HTTPS_EDGE,
  list: 'httpsEdges',
  listDescription:
    'HTTPS edges, newest first, with their routes. Forward paging: first (1..100, default 20) and\nafter. Empty for an account the provider no longer serves edges to.',
  oneDescription: 'Null when no edge has this id.',
  connection: 'A page of HTTPS edges.',
  edge: 'One HTTPS edge of a page, with its cursor.',
});
