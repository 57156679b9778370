// The deadline of the operation an upstream call belongs to. The gateway sets it once per GraphQL
// operation (src/gateway/operation-deadline.ts); the transport reads it for every attempt, retry and queue
// wait, so nothing an operation starts outlives it. Outside an operation there is none.
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<number>();

/** Runs `fn` with a deadline `ms` from now (performance.now() clock) for every upstream call it makes. */
export function withDeadline<T>(ms: number, fn: () => T): T {
  return storage.run(performance.now() + ms, fn);
}

/** The current operation's deadline on the performance.now() clock, or Infinity outside an operation. */
export function currentDeadline(): number {
  return storage.getStore() ?? Number.POSITIVE_INFINITY;
}
