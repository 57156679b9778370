// Commands to an online agent: POST /tunnel_sessions/{id}/restart|stop|update with body {}, 204 on
// success. Never retried once sent (stages/retry.ts: writes only when unsent) and forwarded (any
// failure after sending, a 5xx included, leaves the outcome unknown: stages/outcome.ts). A 404 is no
// such online agent; a 400 is the agent's refusal, with the upstream's cleaned reason.
import { NotFoundError, RefusedInputError, UpstreamError } from '../../errors';
import { routeCall } from '../../resources/routes';
import type { RouteName, UpstreamRequest } from '../call/request';
import { writing } from './calls';

export type AgentCommand = 'restart' | 'stop' | 'update';

const ROUTES = {
  restart: 'restartTunnelSession',
  stop: 'stopTunnelSession',
  update: 'updateTunnelSession',
} as const satisfies Readonly<Record<AgentCommand, RouteName>>;

function refused(error: unknown, id: string): unknown {
  if (!(error instanceof UpstreamError)) return error;
  if (error.status === 404) return new NotFoundError(`No online tunnel session ${id}.`, id);
  if (error.status === 400 && error.code === 'BAD_USER_INPUT')
    return new RefusedInputError('command', error.refusal);
  return error;
}

export const commandTunnelSession = writing(
  (id: string, command: AgentCommand): UpstreamRequest => ({
    ...routeCall(ROUTES[command], { id }),
    body: {},
    forwarded: true,
  }),
  () => undefined,
  refused,
);
