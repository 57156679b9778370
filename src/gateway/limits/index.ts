// The limits room's front: how an operation may be written (query-limits.ts), what it may cost
// upstream (demand-control.ts, over the planner in demand/; the calls it holds meanwhile:
// budget-holds.ts), how long it may run (operation-deadline.ts), how a subscription's events are
// joined (observation-joins.ts), and what each answer cost upstream: extensions.upstreamCalls and
// upstreamBudget (cost-extensions.ts).
export { useBudgetHolds } from './budget-holds';
export { useCostExtensions } from './cost-extensions';
export { useDemandControl } from './demand-control';
export { useObservationJoins } from './observation-joins';
export { useOperationDeadline } from './operation-deadline';
export { useQueryLimits } from './query-limits';
