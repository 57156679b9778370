// A subscription's joins, per observation: the events one observation (a walk, or a write) brings a
// subscriber are executed together, `together` at a time (gateway/limits/observation-joins.ts), so
// their Ref.node loads reach one DataLoader batch per kind and level: a chunk of 100 events costs
// what a page of 100 items with the same selection costs, one filtered list per kind. Chunks of one
// observation share its lookups, so an observation of `events` events makes at most
// ceil(events / together) times one chunk's calls. Its prediction is the most events whose joins
// fit MAX_UPSTREAM_CALLS_PER_OPERATION, chunked whichever way admits more: 100 together where the
// kinds are listed by id (1,000 events for one such join), one by one where each is a GET anyway (a
// tunnel: 10 events). An observation with more events than that ends the subscription rather than
// going past its prediction (observation-joins.ts).

/** Events joined in one batch at most: one upstream page of ids. */
const JOINED_TOGETHER = 100;

/** What one event's joins cost alone, and what 100 events' cost together (the planner's figures). */
export interface StreamCosts {
  readonly one: number;
  readonly together: number;
}

/** How a subscription's events are joined: `together` at a time, `events` per observation at most. */
export interface ObservationJoins {
  readonly together: number;
  /** Events of one observation whose joins were admitted (Infinity: it selects no join). */
  readonly events: number;
  /** The calls one observation makes at most: the subscription's prediction. */
  readonly calls: number;
}

/** A subscription's costs, from the price of its selection for so many events together. */
export const streamCosts = (price: (events: number) => { readonly calls: number }): StreamCosts => ({
  one: price(1).calls,
  together: price(JOINED_TOGETHER).calls,
});

/** `plan` with the joins of one observation counted in, admitted within `maxCalls` (one event's when absent). */
export function withObservations<P extends { readonly calls: number }>(
  plan: P,
  costs: StreamCosts,
  maxCalls = 0,
): P & { readonly stream: ObservationJoins } {
  const stream = observationJoins(costs, maxCalls);
  return { ...plan, calls: plan.calls + stream.calls, stream };
}

/** The chunking that admits the most events per observation within `maxCalls`. */
function observationJoins(costs: StreamCosts, maxCalls: number): ObservationJoins {
  // No join: nothing to batch, each event runs as it comes.
  if (costs.together === 0) return { together: 1, events: Number.POSITIVE_INFINITY, calls: 0 };
  // None fits: one event per observation, predicted above the limit (so refused).
  let best: ObservationJoins = { together: 1, events: 1, calls: costs.one };
  for (const [together, cost] of [
    [JOINED_TOGETHER, costs.together],
    [1, costs.one],
  ] as const) {
    const chunks = cost > 0 ? Math.floor(maxCalls / cost) : 0;
    if (chunks >= 1 && chunks * together > best.events)
      best = { together, events: chunks * together, calls: chunks * cost };
  }
  return best;
}
