// Everything a Redis server holds, as text: every key (SCAN) and every value of the types the
// gateway writes, so a test can say no credential is anywhere in it.
import type { Redis } from 'ioredis';

/** Every key, and `texts`: the keys and every value; a type the gateway never writes reads `unexpected type …`. */
export async function redisContents(admin: Redis): Promise<{ keys: string[]; texts: string[] }> {
  const keys: string[] = [];
  for await (const batch of admin.scanStream({ match: '*', count: 1000 })) keys.push(...(batch as string[]));
  const texts: string[] = [...keys];
  for (const key of keys) {
    const type = await admin.type(key);
    if (type === 'string') texts.push((await admin.get(key)) ?? '');
    else if (type === 'hash') texts.push(...Object.entries(await admin.hgetall(key)).flat());
    else if (type === 'zset') texts.push(...(await admin.zrange(key, 0, -1, 'WITHSCORES')));
    else if (type === 'set') texts.push(...(await admin.smembers(key)));
    else if (type === 'list') texts.push(...(await admin.lrange(key, 0, -1)));
    else if (type !== 'none') texts.push(`unexpected type ${type} at ${key}`);
  }
  return { keys, texts };
}
