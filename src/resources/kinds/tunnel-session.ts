// Tunnel sessions (online agents): one as the upstream sends it, read into the domain's shape, and
// the kind's descriptor (a paged, filterable list; a GET by id; the commands to an agent).
import { TUNNEL_SESSION_ID } from '../id-kinds';
import { filled, object, optionalRef, present, type Ref, requiredId } from '../json';
import { GET_ROUTE, LIST_ROUTE, LISTED_BY_IDS, type Resource } from '../resource';

export interface TunnelSession {
  readonly id: string;
  readonly agentVersion?: string;
  readonly credential?: Ref;
  readonly ip?: string;
  readonly metadata?: string;
  readonly os?: string;
  readonly region?: string;
  readonly startedAt: string;
  /** ngrok/v2 or ssh, as sent. */
  readonly transport?: string;
}

function parseTunnelSession(v: unknown): TunnelSession {
  const where = 'tunnel_session';
  const o = object(v, where);
  return {
    id: requiredId(o, 'id', where, TUNNEL_SESSION_ID),
    agentVersion: present(o, 'agent_version', where),
    credential: optionalRef(o.credential, `${where}.credential`, 'any'),
    ip: present(o, 'ip', where),
    metadata: present(o, 'metadata', where),
    os: present(o, 'os', where),
    region: present(o, 'region', where),
    startedAt: filled(o, 'started_at', where),
    transport: present(o, 'transport', where),
  };
}

/** The commands an agent takes: POST {path}/{id}/restart|stop|update, never retried once sent. */
export const TUNNEL_SESSION = {
  ...TUNNEL_SESSION_ID,
  typeName: 'TunnelSession',
  path: ['tunnel_sessions'],
  routes: {
    listTunnelSessions: LIST_ROUTE,
    getTunnelSession: GET_ROUTE,
    restartTunnelSession: { method: 'POST', template: '/{id}/restart' },
    stopTunnelSession: { method: 'POST', template: '/{id}/stop' },
    updateTunnelSession: { method: 'POST', template: '/{id}/update' },
  },
  list: 'listTunnelSessions',
  get: 'getTunnelSession',
  parse: parseTunnelSession,
  ...LISTED_BY_IDS,
} as const satisfies Resource<TunnelSession>;
