// The account graph's benchmark row: a dashboard's endpoint table with each endpoint's agent, reserved
// domain and reserved TCP address joined. Its fewest calls: the endpoint page, then one filtered list
// per kind for the page's references (agents, domains, addresses).
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
