// What the benchmark sends: the REST baseline and the GraphQL operations a dashboard makes,
// each with the check that its answer is right and the fewest upstream calls it can cost.
import { type AccountSeed, newId } from '../../sandbox';
import { edgeBackendsScenario, joinAllScenario } from './account-graph-scenarios';
import { dataOf, field, graphql, lengthOf } from './answers';
import type { Scenario } from './scenario';

export type { Scenario };

const TUNNEL_FIELDS =
  'id publicUrl startedAt metadata proto region forwardsTo tunnelSession { id uri } endpoint { id uri } backends { id uri } labels { name value }';

/** Every Endpoint field, as a dashboard's endpoint table selects it. */
const ENDPOINT_FIELDS =
  'id url type typeName bindings proto hostport region createdAt updatedAt description metadata trafficPolicy poolingEnabled upstreamUrl domain { id uri } tcpAddr { id uri } tunnel { id uri } tunnelSession { id uri } principal { id uri }';

const LIST_20 = `query List20 { tunnels(first: 20) { edges { cursor node { ${TUNNEL_FIELDS} } } pageInfo { hasNextPage endCursor } } }`;

export function scenarios(account: AccountSeed): Scenario[] {
  // Newest first, as the upstream lists them (ids sort by creation time); ids past the first page
  // are never primed by a list.
  const ids = (account.tunnels ?? [])
    .map((t) => t.id)
    .sort()
    .reverse();
  if (ids.length < 40) throw new Error('the stand-in account needs at least 40 tunnels');
  const edge = account.edges?.[0];
  const route = edge?.routes.find((r) => r.backend !== undefined);
  if (!edge || !route?.backend) throw new Error('the stand-in account needs an edge route with a backend');

  const byId = ids.slice(20, 30);
  const byIdQuery = `query ById10 { ${byId.map((id, i) => `t${i}: tunnel(id: "${id}") { ${TUNNEL_FIELDS} }`).join(' ')} }`;
  // 14 tunnels, 3 well-formed tunnel ids that do not exist, 3 ids of types the schema does not hold.
  const mixed = [
    ...ids.slice(20, 34),
    newId('tn'),
    newId('tn'),
    newId('tn'),
    edge.id,
    route.id,
    newId('edghts'),
  ];
  const listed = ids.slice(0, 5);
  // The join row reads each listed tunnel's agent endpoint: every one of the first page needs one.
  const withEndpoint = new Set((account.tunnels ?? []).filter((t) => t.endpoint).map((t) => t.id));
  if (!ids.slice(0, 20).every((id) => withEndpoint.has(id)))
    throw new Error('the stand-in account needs 20 newest tunnels with an agent endpoint each');

  return [
    {
      name: 'rest-direct',
      summary: 'GET /tunnels?limit=20 straight to the stand-in',
      target: 'rest',
      path: '/tunnels?limit=20',
      credentials: 'shared',
      minimumCalls: 1,
      check: (status, json) =>
        status !== 200
          ? `HTTP ${status}`
          : lengthOf(field(json, 'tunnels')) === 20
            ? undefined
            : 'not 20 tunnels',
    },
    {
      name: 'yoga-floor',
      summary: '{ hello } on a bare graphql-yoga server: what yoga itself costs',
      target: 'floor',
      path: '/graphql',
      body: graphql('{ hello }'),
      credentials: 'distinct',
      minimumCalls: 0,
      check: checkValue('hello', 'world'),
    },
    {
      name: 'typename',
      summary: '{ __typename } through the gateway: the price of its plugins alone',
      target: 'gateway',
      path: '/graphql',
      body: graphql('{ __typename }'),
      credentials: 'distinct',
      minimumCalls: 0,
      check: checkValue('__typename', 'Query'),
    },
    {
      name: 'list-20',
      summary: 'tunnels(first: 20), every Tunnel field, one credential',
      target: 'gateway',
      path: '/graphql',
      body: graphql(LIST_20),
      credentials: 'shared',
      minimumCalls: 1,
      check: checkPage('tunnels'),
    },
    {
      name: 'list-20-compressed',
      process: 'compressing',
      summary: 'list-20 with Accept-Encoding: gzip, br (answers brotli): the CPU compression costs',
      target: 'gateway',
      path: '/graphql',
      body: graphql(LIST_20),
      headers: { 'accept-encoding': 'gzip, br' },
      credentials: 'shared',
      minimumCalls: 1,
      check: checkPage('tunnels'),
    },
    {
      name: 'list-20-distinct',
      summary: 'the same, each connection with its own credential',
      target: 'gateway',
      path: '/graphql',
      body: graphql(LIST_20),
      credentials: 'distinct',
      minimumCalls: 1,
      check: checkPage('tunnels'),
    },
    {
      name: 'by-id-10',
      summary: 'ten tunnel(id) aliases of distinct ids',
      target: 'gateway',
      path: '/graphql',
      body: graphql(byIdQuery),
      credentials: 'shared',
      minimumCalls: 10,
      check: (status, json) => {
        const data = dataOf(status, json);
        if (typeof data === 'string') return data;
        return byId.every((id, i) => field(data[`t${i}`], 'id') === id) ? undefined : 'a tunnel is missing';
      },
    },
    {
      name: 'node-mixed',
      summary: 'nodes(ids) of 20: 14 tunnels, 3 unknown tunnel ids, 3 ids of other types',
      target: 'gateway',
      path: '/graphql',
      body: graphql(
        `query Mixed($ids: [ID!]!) { nodes(ids: $ids) { id ... on Tunnel { ${TUNNEL_FIELDS} } } }`,
        {
          ids: mixed,
        },
      ),
      credentials: 'shared',
      minimumCalls: 17,
      check: (status, json) => {
        const data = dataOf(status, json);
        if (typeof data === 'string') return data;
        const nodes = data.nodes;
        if (!Array.isArray(nodes) || nodes.length !== 20) return 'not 20 nodes';
        const found = nodes.filter((n) => n !== null).length;
        return found === 14 ? undefined : `${found} nodes found, 14 expected`;
      },
    },
    {
      name: 'list-then-read',
      summary: 'tunnels(first: 20) and nodes(ids) of 5 listed ids in one operation',
      target: 'gateway',
      path: '/graphql',
      body: graphql(
        `query ListThenRead($ids: [ID!]!) { tunnels(first: 20) { edges { node { id } } } nodes(ids: $ids) { ... on Tunnel { ${TUNNEL_FIELDS} } } }`,
        { ids: listed },
      ),
      credentials: 'shared',
      minimumCalls: 1,
      check: (status, json) => {
        const data = dataOf(status, json);
        if (typeof data === 'string') return data;
        const nodes = data.nodes;
        return Array.isArray(nodes) && nodes.every((n, i) => field(n, 'id') === listed[i])
          ? undefined
          : 'listed nodes missing';
      },
    },
    {
      name: 'endpoints-list-20',
      process: 'endpoints',
      summary: 'endpoints(first: 20), every Endpoint field, one credential',
      target: 'gateway',
      path: '/graphql',
      body: graphql(
        `query Endpoints20 { endpoints(first: 20) { edges { cursor node { ${ENDPOINT_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
      ),
      credentials: 'shared',
      minimumCalls: 1,
      check: checkPage('endpoints'),
    },
    {
      name: 'tunnels-20-join-endpoints',
      process: 'endpoints',
      summary: "tunnels(first: 20) with each tunnel's agent endpoint joined (Ref.node), one credential",
      target: 'gateway',
      path: '/graphql',
      body: graphql(
        'query TunnelsWithEndpoints { tunnels(first: 20) { nodes { id endpoint { node { ... on Endpoint { url trafficPolicy } } } } } }',
      ),
      credentials: 'shared',
      // The tunnel page, then one filtered endpoint list for the 20 references.
      minimumCalls: 2,
      check: (status, json) => {
        const data = dataOf(status, json);
        if (typeof data === 'string') return data;
        const nodes = field(data.tunnels, 'nodes');
        if (!Array.isArray(nodes) || nodes.length !== 20) return 'not 20 tunnels';
        const joined = nodes.filter(
          (n) => typeof field(field(field(n, 'endpoint'), 'node'), 'url') === 'string',
        );
        return joined.length === 20 ? undefined : `${joined.length} endpoints joined, 20 expected`;
      },
    },
    joinAllScenario(),
    edgeBackendsScenario(account),
    {
      name: 'replace',
      summary: 'replaceHttpsEdgeRouteBackend in a loop (the same backend each time)',
      target: 'gateway',
      path: '/graphql',
      body: graphql(
        `mutation Replace($input: ReplaceHttpsEdgeRouteBackendInput!) { replaceHttpsEdgeRouteBackend(input: $input) { __typename ... on ReplaceHttpsEdgeRouteBackendPayload { backendModule { edgeId routeId enabled backend { id uri } } } ... on Error { message code } } }`,
        { input: { edgeId: edge.id, routeId: route.id, backendId: route.backend.backendId } },
      ),
      credentials: 'shared',
      minimumCalls: 1,
      check: (status, json) => {
        const data = dataOf(status, json);
        if (typeof data === 'string') return data;
        const typename = field(data.replaceHttpsEdgeRouteBackend, '__typename');
        return typename === 'ReplaceHttpsEdgeRouteBackendPayload'
          ? undefined
          : `answered ${String(typename)}`;
      },
    },
  ];
}

/** The check of an answer whose `data[key]` must be `expected`. */
function checkValue(key: string, expected: string): Scenario['check'] {
  return (status, json) => {
    const data = dataOf(status, json);
    if (typeof data === 'string') return data;
    return data[key] === expected ? undefined : `no ${key}`;
  };
}

/** The check of a first page of 20 of `connection`, with more after it. */
function checkPage(connection: 'tunnels' | 'endpoints'): Scenario['check'] {
  return (status, json) => {
    const data = dataOf(status, json);
    if (typeof data === 'string') return data;
    const page = data[connection];
    if (lengthOf(field(page, 'edges')) !== 20) return 'not 20 edges';
    return field(field(page, 'pageInfo'), 'hasNextPage') === true ? undefined : 'hasNextPage is not true';
  };
}
