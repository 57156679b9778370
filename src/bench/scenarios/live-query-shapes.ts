// The 20 live query shapes of the live-queries run (`npm run bench -- --live-queries`): pages of
// endpoints (first 10 to 100, by type, joined to their agents and reservations), agents with their
// endpoints, pages of tunnels joined to their agents and endpoints, reserved domains with their
// endpoints, and nodes(ids). Every one reads only what the account's observation holds (tunnels,
// endpoints, tunnel sessions, reserved domains, reserved addresses), so each is answered live.
import type { AccountSeed } from '../../sandbox';

export interface LiveQueryShape {
  readonly name: string;
  /** The operation with @live; the same without it is its plain query (plainQuery). */
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>>;
}

/** The same operation without @live: what a plain query answers. */
export const plainQuery = (query: string): string => query.replace(' @live', '');

const ENDPOINT = 'id url type updatedAt';
const PAGE = 'pageInfo { hasNextPage endCursor }';
const endpoints = (name: string, first: number, types?: readonly string[], more = '') => ({
  name,
  query: `query ${name}($first: Int!, $filter: EndpointFilter) @live { endpoints(first: $first, filter: $filter) { nodes { ${ENDPOINT}${more} } ${PAGE} } }`,
  variables: { first, ...(types ? { filter: { types } } : {}) },
});
const SESSION_JOIN = ' tunnelSession { id node { ... on TunnelSession { id region os } } }';
const RESERVATION_JOIN =
  ' domain { node { ... on ReservedDomain { id domain } } } tcpAddr { node { ... on ReservedAddress { id addr } } }';

/**
 * The shape that reads every observed kind: the one query of the 1-query run, so that its walks
 * cover the lists the 200 queries' do, and the query re-run by polling beside it.
 */
export const OVERVIEW = 'Overview';

/** The 20 shapes; the ids of nodes(ids) are the account's (oldest, middle and newest items). */
export function liveQueryShapes(account: AccountSeed): LiveQueryShape[] {
  const tunnels = account.tunnels ?? [];
  const clouds = account.endpoints ?? [];
  const sessions = account.tunnelSessions ?? [];
  const domains = account.reservedDomains ?? [];
  const addrs = account.reservedAddrs ?? [];
  const at = <T extends { id: string }>(items: readonly T[], i: number) =>
    items[((i % items.length) + items.length) % items.length]?.id ?? '';
  const agentEndpoint = (i: number) => `ep_${at(tunnels, i).slice(3)}`;
  const NODE_FIELDS =
    'id ... on Endpoint { url updatedAt } ... on Tunnel { publicUrl } ... on TunnelSession { region } ... on ReservedDomain { domain } ... on ReservedAddress { addr }';
  return [
    {
      name: OVERVIEW,
      query: `query ${OVERVIEW}($ids: [ID!]!) @live { tunnelSessions(first: 5) { nodes { id region endpoints(first: 3) { nodes { id url updatedAt } } } } tunnels(first: 5) { nodes { id publicUrl } } nodes(ids: $ids) { ${NODE_FIELDS} } }`,
      variables: { ids: [at(domains, 0), at(addrs, 0), at(clouds, 0), at(clouds, 700)] },
    },
    endpoints('Endpoints10', 10),
    endpoints('Endpoints20', 20),
    endpoints('Endpoints50', 50),
    endpoints('Endpoints100', 100),
    endpoints('AgentEndpoints10', 10, ['AGENT']),
    endpoints('CloudEndpoints20', 20, ['CLOUD'], ' bindings description'),
    endpoints('AgentEndpoints50WithAgents', 50, ['AGENT'], SESSION_JOIN),
    endpoints('CloudEndpoints100', 100, ['CLOUD'], ' trafficPolicy'),
    endpoints('Endpoints20WithReservations', 20, undefined, RESERVATION_JOIN),
    {
      name: 'Agents5WithEndpoints',
      query: `query Agents5WithEndpoints @live { tunnelSessions(first: 5) { nodes { id region endpoints(first: 3) { nodes { id url } } } } }`,
      variables: {},
    },
    {
      name: 'Agents8WithEndpointsAndReservations',
      query: `query Agents8WithEndpointsAndReservations @live { tunnelSessions(first: 8) { nodes { id os endpoints(first: 5) { nodes { url${RESERVATION_JOIN} } } } ${PAGE} } }`,
      variables: {},
    },
    {
      name: 'Agents20WithEndpoints',
      query: `query Agents20WithEndpoints @live { tunnelSessions(first: 20) { nodes { id agentVersion endpoints(first: 2) { nodes { id updatedAt } } } } }`,
      variables: {},
    },
    {
      name: 'Tunnels10',
      query: `query Tunnels10 @live { tunnels(first: 10) { nodes { id publicUrl proto region startedAt } ${PAGE} } }`,
      variables: {},
    },
    {
      name: 'Tunnels50WithAgents',
      query: `query Tunnels50WithAgents @live { tunnels(first: 50) { nodes { id publicUrl tunnelSession { node { ... on TunnelSession { id region } } } } } }`,
      variables: {},
    },
    {
      name: 'Tunnels100WithEndpoints',
      query: `query Tunnels100WithEndpoints @live { tunnels(first: 100) { nodes { id endpoint { node { ... on Endpoint { url updatedAt } } } } ${PAGE} } }`,
      variables: {},
    },
    {
      name: 'Domains10WithEndpoints',
      query: `query Domains10WithEndpoints @live { reservedDomains(first: 10) { nodes { id domain endpoints(first: 5) { nodes { id url } } } } }`,
      variables: {},
    },
    {
      name: 'Domains20WithEndpoints',
      query: `query Domains20WithEndpoints @live { reservedDomains(first: 20) { nodes { id domain endpoints(first: 2) { nodes { id url updatedAt } } } ${PAGE} } }`,
      variables: {},
    },
    {
      name: 'NodesEndpoints',
      query: `query NodesEndpoints($ids: [ID!]!) @live { nodes(ids: $ids) { ${NODE_FIELDS} } }`,
      variables: {
        ids: [
          at(clouds, 0),
          at(clouds, 1),
          at(clouds, 500),
          at(clouds, -1),
          agentEndpoint(3),
          agentEndpoint(-1),
        ],
      },
    },
    {
      name: 'NodesAgentsAndTunnels',
      query: `query NodesAgentsAndTunnels($ids: [ID!]!) @live { nodes(ids: $ids) { ${NODE_FIELDS} } }`,
      variables: {
        ids: [at(sessions, 0), at(sessions, 250), at(tunnels, 0), at(tunnels, 1), at(tunnels, -1)],
      },
    },
  ];
}
