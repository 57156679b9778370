// Live queries (@live): the plugin app.ts takes; what such a query may read is live-reads.ts's.
export { useLiveQueries } from './live-queries';
export { startsObserved } from './observed-start';
