// The commands an online agent takes (POST /tunnel_sessions/{id}/restart|stop|update), as the
// provider describes them: a stopped agent leaves the list with its tunnels (and their agent
// endpoints); a restarted one reconnects under a new session id, its tunnels under new ids; an update
// is refused for each reason the provider names, and a Windows agent cannot restart.

import { apiError, notFound } from '../api/errors';
import type { AgentCommandRoute } from '../api/routes';
import { idTime, newId } from '../state/ids';
import type { AccountStore } from '../state/store';
import type { UpstreamTunnel } from '../types';
import type { AgentUpdateState, UpstreamTunnelSession } from './types';

/** Why an update is refused (ERR_NGROK_806's REASON), per state; 'available' is not refused. */
const UPDATE_REFUSALS: Readonly<Record<Exclude<AgentUpdateState, 'available'>, string>> = {
  none: 'no update is available for this agent',
  disabled: "update checks are disabled in the agent's configuration",
  'in-progress': 'an update of this agent is already in progress',
  'awaiting-restart': 'this agent has already been updated and must be restarted to run the new version',
};

const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A second after the newest id's time, or now when that is later: what a new id needs to list first. */
function afterNewest(ids: readonly (string | undefined)[]): number {
  const newest = Math.max(0, ...ids.map((id) => idTime(id ?? '')?.getTime() ?? 0));
  return Math.max(Date.now(), newest + 1000);
}

/** The agent re-executes itself: a new session, and each of its tunnels again under a new id. */
function restart(account: AccountStore, session: UpstreamTunnelSession): void {
  const graph = account.graph;
  let time = afterNewest([graph.sessions.items[0]?.id, account.newestTunnel()?.id]);
  const id = newId('ts', new Date(time));
  const tunnels = account.tunnelsOf(session.id);
  const updated = graph.updateState(session, 'available') === 'awaiting-restart';
  for (const tunnel of tunnels) account.removeTunnel(tunnel.id);
  graph.removeSession(session.id);
  graph.sessions.put({ ...structuredClone(session), id, started_at: rfc3339(time) });
  if (updated) graph.setUpdateState(id, 'none');
  for (const tunnel of [...tunnels].reverse()) {
    time += 1000;
    const tunnelId = newId('tn', new Date(time));
    const again: UpstreamTunnel = {
      ...structuredClone(tunnel),
      id: tunnelId,
      started_at: rfc3339(time),
      tunnel_session: { id, uri: '' },
      ...(tunnel.endpoint ? { endpoint: { id: `ep_${tunnelId.slice(3)}`, uri: '' } } : {}),
    };
    account.addTunnel(again);
  }
}

/** Runs one command on an online agent of `account`; throws the ApiError the provider would answer. */
export function commandAgent(
  account: AccountStore,
  command: AgentCommandRoute,
  sessionId: string,
  defaultUpdate: AgentUpdateState,
): void {
  const graph = account.graph;
  const session = graph.sessions.get(sessionId);
  if (session === undefined) throw notFound();
  if (command === 'stopTunnelSession') {
    for (const tunnel of account.tunnelsOf(sessionId)) account.removeTunnel(tunnel.id);
    graph.removeSession(sessionId);
    return;
  }
  if (command === 'restartTunnelSession') {
    if (session.os === 'windows')
      throw apiError('ERR_NGROK_804', { REASON: 'restarting is not supported on Windows' });
    restart(account, session);
    return;
  }
  const state = graph.updateState(session, defaultUpdate);
  if (state !== 'available') throw apiError('ERR_NGROK_806', { REASON: UPDATE_REFUSALS[state] });
  graph.setUpdateState(sessionId, 'awaiting-restart');
}
