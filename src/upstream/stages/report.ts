// Reports every attempt sent to the upstream (the attempt hook, for metrics) and counts it into the
// request's tally: its status, or the error code when no answer came.
import type { UpstreamEvents } from '../http/hooks';
import { asFailure, type Stage, statusOf } from '../http/stage';

/** Reports every attempt sent: its status, or the error code when no answer came. */
export const reportStage =
  (events: UpstreamEvents | undefined): Stage =>
  (next) =>
  async (call) => {
    const started = performance.now();
    const report = (status: number | undefined, code: string | undefined) => {
      if (call.tally) call.tally.calls += 1;
      events?.attempt?.({
        route: call.request.route,
        method: call.request.method,
        status,
        code,
        durationMs: performance.now() - started,
      });
    };
    try {
      const response = await next(call);
      report(response.status, undefined);
      return response;
    } catch (caught) {
      const failure = asFailure(caught);
      report(statusOf(failure.error), failure.error.code);
      throw failure;
    }
  };
