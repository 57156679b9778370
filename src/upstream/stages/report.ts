// Reports every attempt sent to the upstream (the attempt hook, for metrics): its status, or the error
// code when no answer came; and counts it into the operation's ledger (call/ledger.ts), the call it
// starts once however often it is resent (extensions.upstreamCalls.made). An attempt of an operation
// that has answered already is refused here, unsent: no call outlives its operation's answer.
import { GatewayError } from '../../errors';
import type { UpstreamEvents } from '../call/hooks';
import { MESSAGES } from '../call/messages';
import { AttemptFailure, asFailure, callNext, type Stage, statusOf } from '../call/stage';

/** Reports every attempt sent: its status, or the error code when no answer came. */
export const reportStage =
  (events: UpstreamEvents | undefined): Stage =>
  (next) =>
  (call) => {
    if (call.ledger?.ended)
      return Promise.reject(
        new AttemptFailure(new GatewayError('UPSTREAM_UNAVAILABLE', MESSAGES.ENDED), 'local'),
      );
    const landed = call.ledger?.sent();
    const started = performance.now();
    const report = (status: number | undefined, code: string | undefined) => {
      landed?.();
      // A call's first attempt sent: its resends (retry.ts) are the same call.
      call.ledger?.attempted(call.attempt === undefined);
      events?.attempt?.({
        route: call.request.route,
        method: call.request.method,
        status,
        code,
        durationMs: performance.now() - started,
      });
    };
    return callNext(next, call).then(
      (response) => {
        report(response.status, undefined);
        return response;
      },
      (caught: unknown) => {
        const failure = asFailure(caught);
        report(statusOf(failure.error), failure.error.code);
        throw failure;
      },
    );
  };
