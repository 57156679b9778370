// Each kind of shared state, in Redis while Redis is up and in this process while it is down,
// switching both ways without a restart. No Redis failure reaches a caller: a call that fails on
// Redis is answered from per-process state. When Redis returns, the per-process side hands over
// what the outage changed where it matters (calls against the budget, running pauses, cache
// invalidations) and clears its copies, so a later outage starts from nothing stale.
import type { RedisLink } from './redis/connection';

/**
 * Every method of the interface, named once: the compiler refuses a list that misses one, so a
 * method added to an interface cannot bypass the fallback. The wrapper answers every call with a
 * promise, which each interface allows (a store in this process may answer some at once). (A Proxy
 * would forward any name, `then` included, which makes the wrapper look like a promise to `await`.)
 */
export type MethodNames<T> = {
  readonly [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? true : never;
};

/** What answers while Redis is down, and hands over to Redis once it is back. */
export interface OutageSide<R> {
  handOver(redis: R): Promise<void> | void;
}

type AsyncMethod = (...args: unknown[]) => Promise<unknown>;

/** Redis's answer while it is up and answers; the per-process one otherwise. */
async function preferRedis<T>(
  link: RedisLink,
  viaRedis: () => Promise<T>,
  inProcess: () => Promise<T>,
): Promise<T> {
  if (!link.up) return inProcess();
  try {
    return await viaRedis();
  } catch (error) {
    link.commandFailed(error);
    return inProcess();
  }
}

function methodOf(side: object, name: string): AsyncMethod {
  const method: unknown = Reflect.get(side, name);
  if (typeof method !== 'function') throw new TypeError(`no method ${name} to fall back on`);
  return (...args) => Reflect.apply(method, side, args);
}

/**
 * `T` backed by `redis`, and by `memory` while Redis is down or a command fails. Each time Redis
 * comes back, `memory.handOver(redis)` runs; its failures only mean less is handed over.
 */
export function withFallback<T extends object, R extends T = T>(
  link: RedisLink,
  methods: MethodNames<T>,
  redis: R,
  memory: T & OutageSide<R>,
): T {
  link.onChange((state) => {
    if (state !== 'up') return;
    (async () => memory.handOver(redis))().catch((error: unknown) => link.commandFailed(error));
  });
  const wrapper: Record<string, AsyncMethod> = {};
  for (const name of Object.keys(methods)) {
    const viaRedis = methodOf(redis, name);
    const inProcess = methodOf(memory, name);
    wrapper[name] = (...args) =>
      preferRedis(
        link,
        () => viaRedis(...args),
        () => inProcess(...args),
      );
  }
  // Holds exactly the methods of T (checked by MethodNames), each with T's signature.
  return wrapper as T;
}
