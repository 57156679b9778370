// The account graph's benchmark rows: a dashboard's endpoint table with each endpoint's agent, reserved
// domain and reserved TCP address joined (its fewest calls: the endpoint page, then one filtered list
// per kind for the page's references), and an edge page with each route's backend (the edge page, then
// one GET per distinct backend: the upstream cannot filter backends).
import type { AccountSeed } from '../../sandbox';
import { dataOf, field, graphql } from './answers';
import type { Scenario } from './scenario';

const JOIN_ALL = `query EndpointsJoinAll { endpoints(first: 20) { nodes { id url
  tunnelSession { id node { ... on TunnelSession { id os agentVersion region startedAt } } }
  domain { id node { ... on ReservedDomain { id domain cnameTarget } } }
  tcpAddr { id node { ... on ReservedAddress { id addr } } } } } }`;

const REFS = ['tunnelSession', 'domain', 'tcpAddr'] as const;

/** Every reference of the page resolved (a node with the reference's id), and all three kinds met. */
function checkJoined(status: number, json: unknown): string | undefined {
  const data = dataOf(status, json);
  if (typeof data === 'string') return data;
  const nodes = field(data.endpoints, 'nodes');
  if (!Array.isArray(nodes) || nodes.length !== 20) return 'not 20 endpoints';
  const met = new Set<string>();
  for (const node of nodes) {
    for (const name of REFS) {
      const ref = field(node, name);
      if (ref === null) continue;
      if (field(field(ref, 'node'), 'id') !== field(ref, 'id'))
        return `${name} of ${String(field(node, 'id'))} not joined`;
      met.add(name);
    }
  }
  return met.size === REFS.length ? undefined : `only ${[...met].join(', ')} referenced`;
}

export function joinAllScenario(): Scenario {
  return {
    name: 'endpoints-20-join-all',
    process: 'endpoints',
    summary:
      "endpoints(first: 20) with each endpoint's agent, reserved domain and TCP address joined, one credential",
    target: 'gateway',
    path: '/graphql',
    body: graphql(JOIN_ALL),
    credentials: 'shared',
    // The endpoint page, then one filtered list each of agents, domains and addresses.
    minimumCalls: 4,
    check: checkJoined,
  };
}

const EDGE_PAGE = `query EdgeBackends { httpsEdges(first: 2) { nodes { id hostports routes { match
  backend { enabled backend { id node { __typename id
    ... on TunnelGroupBackend { labels { name value } }
    ... on FailoverBackend { backends { id } }
    ... on WeightedBackend { backends { weight backend { id } } }
    ... on HttpResponseBackend { statusCode }
    ... on StaticBackend { address } } } } } } } }`;

/** The newest two edges' distinct backends, as the account's seed holds them. */
function edgePageBackends(account: AccountSeed): number {
  const newest = [...(account.edges ?? [])].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, 2);
  const ids = newest.flatMap((edge) => edge.routes.flatMap((r) => (r.backend ? [r.backend.backendId] : [])));
  return new Set(ids).size;
}

/** Two edges, every route with a backend module joined to its backend node. */
export function edgeBackendsScenario(account: AccountSeed): Scenario {
  const backends = edgePageBackends(account);
  if (backends < 2) throw new Error('the stand-in account needs two edges whose routes name backends');
  return {
    name: 'edges-2-with-backends',
    summary: "httpsEdges(first: 2) with each route's backend module and its backend node, one credential",
    target: 'gateway',
    path: '/graphql',
    body: graphql(EDGE_PAGE),
    credentials: 'shared',
    // The edge page, then one GET per distinct backend its routes name.
    minimumCalls: 1 + backends,
    check(status, json) {
      const data = dataOf(status, json);
      if (typeof data === 'string') return data;
      const nodes = field(data.httpsEdges, 'nodes');
      if (!Array.isArray(nodes) || nodes.length !== 2) return 'not 2 edges';
      const modules = nodes.flatMap((n) => {
        const routes = field(n, 'routes');
        return Array.isArray(routes) ? routes.map((r) => field(r, 'backend')).filter((m) => m !== null) : [];
      });
      const joined = modules.filter((m) => {
        const ref = field(m, 'backend');
        return field(field(ref, 'node'), 'id') === field(ref, 'id');
      });
      return joined.length === modules.length && modules.length > 0
        ? undefined
        : 'a route backend not joined';
    },
  };
}
