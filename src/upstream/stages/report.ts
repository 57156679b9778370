// Reports every attempt sent to the upstream (the attempt hook, for metrics) and counts it into the
// request's tally: its status, or the error code when no answer came; and counts each call started
// into its operation (extensions.upstreamCalls.made) once, however often it is resent.
import type { UpstreamEvents } from '../call/hooks';
import { asFailure, callNext, type Stage, statusOf } from '../call/stage';

/** Reports every attempt sent: its status, or the error code when no answer came. */
export const reportStage =
  (events: UpstreamEvents | undefined): Stage =>
  (next) =>
  (call) => {
    const started = performance.now();
    const report = (status: number | undefined, code: string | undefined) => {
      if (call.tally) call.tally.calls += 1;
      // A call's first attempt sent: its resends (retry.ts) are the same call.
      if (call.attempt === undefined) {
        if (call.tally) call.tally.made += 1;
        if (call.operation) call.operation.made += 1;
      }
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
