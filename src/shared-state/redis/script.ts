// A Lua script run by its SHA1 (EVALSHA), sent in full (EVAL) only when Redis does not know it yet:
// after a restart or a SCRIPT FLUSH. Scripts are what make a read-then-write atomic across replicas.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

type ScriptArg = string | number;

export type RedisScript = (
  client: Redis,
  keys: readonly string[],
  args: readonly ScriptArg[],
) => Promise<unknown>;

export function redisScript(source: string): RedisScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (client, keys, args) => {
    try {
      return await client.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(source, keys.length, ...keys, ...args);
    }
  };
}

/** The integers a script returned; anything else is a bug in the script, not in Redis. */
export function integersOf(reply: unknown, count: number): number[] {
  if (!Array.isArray(reply) || reply.length !== count || !reply.every((n) => typeof n === 'number')) {
    throw new Error(`unexpected script reply (wanted ${count} integers)`);
  }
  return reply as number[];
}
