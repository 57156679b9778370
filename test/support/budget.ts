// What extensions.upstreamBudget says after the given calls in a credential's window, no hold pending:
// the limit less every call made, and each share (shared-state/budget/rate-budget.ts): reads may fill
// the window but its last tenth, writes all of it, the live share at most min(poll share, limit / 2).
export function budgetAfter(
  limit: number,
  spent: { reads?: number; writes?: number; live?: number },
  pollBudgetPerMin = 30,
) {
  const { reads = 0, writes = 0, live = 0 } = spent;
  const used = reads + writes + live;
  const readRoom = Math.max(0, limit - Math.floor(limit / 10) - used);
  const liveOwn = Math.min(pollBudgetPerMin, Math.floor(limit / 2));
  return {
    limit,
    remaining: limit - used,
    shares: {
      reads: { spent: reads, remaining: readRoom },
      writes: { spent: writes, remaining: Math.max(0, limit - used) },
      live: { spent: live, remaining: Math.min(readRoom, Math.max(0, liveOwn - live)) },
    },
  };
}
