// Durations the code states in milliseconds. The upstream's rate window, the budgets' rolling
// window and most limits are a minute: one name for it.

export const MINUTE_MS = 60_000;
