// Agents: the TunnelSession node (an online agent's connection to ngrok), `tunnelSessions`,
// `tunnelSession(id)`, and the endpoints an agent serves (TunnelSession.endpoints, filtered upstream).
import { CREDENTIAL, TUNNEL_SESSION, type TunnelSession } from '../../resources';
import { isNodeOf } from '../relay/node-ids';
import { refTo } from '../relay/refs';
import { endpointsReferring, listedNodeRef, listedQueries } from './listed-nodes';

export const TunnelSessionNode = listedNodeRef<TunnelSession>(TUNNEL_SESSION);

TunnelSessionNode.implement({
  description:
    "A running ngrok agent's connection to ngrok (the dashboard's \"Agents\"): the upstream's tunnel\nsession. Listed only while online.",
  isTypeOf: isNodeOf(TUNNEL_SESSION),
  fields: (t) => ({
    agentVersion: t.exposeString('agentVersion', {
      nullable: true,
      description: 'The version of the ngrok agent (or SDK), e.g. 3.19.1.',
    }),
    credential: t.field({
      ...refTo([CREDENTIAL], (session) => session.credential),
      description: 'The credential (cr_…) the agent authenticated with.',
    }),
    ip: t.exposeString('ip', { nullable: true, description: 'Source IP address the agent connected from.' }),
    metadata: t.exposeString('metadata', {
      nullable: true,
      description: "The agent's own metadata option; null when it has none.",
    }),
    os: t.exposeString('os', { nullable: true, description: "Operating system of the agent's host." }),
    region: t.exposeString('region', {
      nullable: true,
      description: 'The region the agent is connected to (us, eu, …).',
    }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      description: 'When the agent connected (RFC 3339).',
    }),
    transport: t.exposeString('transport', {
      nullable: true,
      description: 'ngrok/v2 or ssh, as the upstream sends it.',
    }),
  }),
});

export const TunnelSessionConnection = listedQueries(TunnelSessionNode, {
  resource: TUNNEL_SESSION,
  list: 'tunnelSessions',
  listDescription:
    'Online agents (tunnel sessions), newest first. Forward paging: first (1..100, default 20) and after.',
  oneDescription: 'Null when no online tunnel session has this id.',
  connection: 'A page of online agents.',
  edge: 'One agent of a page, with its cursor.',
});

endpointsReferring(
  TunnelSessionNode,
  'tunnel_session.id',
  "The agent's endpoints, newest first (one upstream call per page: the endpoints list filtered by this\nsession). Forward paging: first (1..100, default 20) and after.",
);
