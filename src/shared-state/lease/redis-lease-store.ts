// Leases in Redis: `<prefix>lease:<name>` holds the holder's id and expires with the lease. Taking
// is SET NX PX; renewing and releasing compare the holder first, atomically, so a replica whose
// lease expired can never extend or delete the lease another replica took over meanwhile.
import type { Redis } from 'ioredis';
import type { KeyNames } from '../redis/keys';
import { redisScript } from '../redis/script';
import type { LeaseStore, Renewal } from './lease-store';

// KEYS: the lease. ARGV: holder, ttl ms. Takes a free lease, or extends one the holder holds.
const ACQUIRE = redisScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`);

// KEYS: the lease. ARGV: holder, ttl ms.
const RENEW = redisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

// KEYS: the lease. ARGV: holder.
const RELEASE = redisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`);

export class RedisLeaseStore implements LeaseStore {
  constructor(
    private readonly client: Redis,
    private readonly keys: KeyNames,
  ) {}

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await ACQUIRE(this.client, [this.keys.lease(name)], [holder, Math.ceil(ttlMs)])) === 1;
  }

  async renew(name: string, holder: string, ttlMs: number): Promise<Renewal> {
    return (await RENEW(this.client, [this.keys.lease(name)], [holder, Math.ceil(ttlMs)])) === 1
      ? 'renewed'
      : 'lost';
  }

  async release(name: string, holder: string): Promise<boolean> {
    return (await RELEASE(this.client, [this.keys.lease(name)], [holder])) === 1;
  }
}
