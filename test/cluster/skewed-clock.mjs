// Preloaded into a replica (NODE_OPTIONS=--import=…) whose wall clock runs CLOCK_SKEW_MS ahead of
// the other machines' (behind when negative): what a replica on another host may see.
const skew = Number(process.env.CLOCK_SKEW_MS ?? 0);
const now = Date.now;
Date.now = () => now() + skew;
