// The pause after a 429 in Redis: one replica's 429 pauses the credential on every replica. The
// key expires with the pause (PXAT); a script keeps the later of two pauses set concurrently.
import type { Redis } from 'ioredis';
import type { KeyNames } from '../redis/keys';
import { redisScript } from '../redis/script';
import { MAX_PAUSE_MS, type PauseStore } from './pause-store';

// KEYS: the pause. ARGV: until (epoch ms). Sets it only when later than the one held.
const PAUSE = redisScript(`
local held = tonumber(redis.call('GET', KEYS[1]) or '0')
local untilMs = tonumber(ARGV[1])
if untilMs > held then redis.call('SET', KEYS[1], ARGV[1], 'PXAT', untilMs) end
return 0
`);

export class RedisPauseStore implements PauseStore {
  constructor(
    private readonly client: Redis,
    private readonly keys: KeyNames,
    private readonly now: () => number = Date.now,
  ) {}

  async pause(digest: string, untilMs: number): Promise<void> {
    const capped = Math.floor(Math.min(untilMs, this.now() + MAX_PAUSE_MS));
    if (capped <= this.now()) return;
    await PAUSE(this.client, [this.keys.pause(digest)], [capped]);
  }

  async pausedUntil(digest: string): Promise<number | undefined> {
    const raw: unknown = await this.client.get(this.keys.pause(digest));
    if (raw !== null && typeof raw !== 'string') throw new Error('unexpected pause reply');
    const until = raw === null ? Number.NaN : Number(raw);
    // Longer than any pause set here (they are capped): not one the gateway set, so none.
    const now = this.now();
    return Number.isFinite(until) && until > now && until <= now + MAX_PAUSE_MS ? until : undefined;
  }
}
