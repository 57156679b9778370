// A write that failed after it was sent may still have been applied (the upstream timed out but
// finished, the connection broke after the request went out, the answer was cut short). Such a
// failure says so (details.outcome 'UNKNOWN'), so a client reads back instead of assuming nothing
// happened. A command the upstream forwards (to an agent) is unknown after a 5xx too.
import { type ErrorCode, UpstreamError } from '../../errors';
import { AttemptFailure, callNext, type Stage, statusOf } from '../call/stage';

/** Failures without a readable refusal from the upstream: the write's fate is unknown. */
const UNCERTAIN: ReadonlySet<ErrorCode> = new Set([
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_BAD_RESPONSE',
]);

const MESSAGE =
  'The ngrok API did not confirm the change, which may have been applied; read it back before retrying.';

function uncertain(failure: AttemptFailure, forwarded: boolean): boolean {
  const { error, delivery } = failure;
  if (delivery !== 'sent' || !UNCERTAIN.has(error.code)) return false;
  const status = statusOf(error);
  // An error answer (a 5xx with its body, a 408) is the upstream's word that it did not apply it;
  // not so for a forwarded command, which may have reached the agent before the upstream failed.
  if (forwarded && status !== undefined && status >= 500) return true;
  return status === undefined || (status >= 200 && status < 300);
}

export const outcomeStage: Stage = (next) => (call) => {
  if (call.request.method === 'GET') return callNext(next, call);
  return callNext(next, call).catch((caught: unknown) => {
    if (!(caught instanceof AttemptFailure) || !uncertain(caught, call.request.forwarded === true))
      throw caught;
    const { error } = caught;
    throw new AttemptFailure(
      new UpstreamError(error.code, MESSAGE, { ...error.details, outcome: 'UNKNOWN' }),
      caught.delivery,
    );
  });
};
