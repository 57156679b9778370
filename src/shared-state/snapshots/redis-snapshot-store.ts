// Snapshots in Redis. A plain value lives at `<prefix>snapshot:<key>` (JSON, expiring). A versioned
// snapshot is the hash `<prefix>live-snapshot:<name>`: its version (v), its head (h) and one field per
// item (`i:<id>`, JSON), beside the list `<prefix>live-changes:<name>` of its last changes, each
// `<from> <to> <JSON>`, oldest first. A swap writes only what changed, and a reader that knows a
// version still in the list gets the changes since it, not the snapshot: one changed item moves
// that item's bytes. Versions come from Redis's own clock (TIME, in microseconds) and are never
// below the stored one: no replica's clock orders anything. Both scripts run atomically, so a swap
// is a compare-and-set and the list is a chain from version to version.
import type { Redis } from 'ioredis';
import type { KeyNames } from '../redis/keys';
import { redisScript } from '../redis/script';
import type { SnapshotChange, SnapshotStore, StoredSnapshot } from './snapshot-store';

/** @internal test seam: Changes kept per snapshot: a reader further behind reads it whole. */
export const CHANGES_KEPT = 64;
/** A change larger than this (as JSON) is not kept: readers behind it read the snapshot whole. */
const MAX_KEPT_CHANGE_BYTES = 256 * 1024;

// KEYS: the hash, the change list. ARGV: the version the reader knows (0: none).
// Returns {} (none), {v} (the reader's), {v, 'changes', entry...} or {v, 'whole', HGETALL}.
const READ = redisScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {} end
if v == ARGV[1] then return {v} end
if ARGV[1] ~= '0' then
  local kept = redis.call('LRANGE', KEYS[2], 0, -1)
  local from = ARGV[1] .. ' '
  for i = 1, #kept do
    if string.sub(kept[i], 1, #from) == from then
      local out = {v, 'changes'}
      for j = i, #kept do out[#out + 1] = kept[j] end
      return out
    end
  end
end
return {v, 'whole', redis.call('HGETALL', KEYS[1])}
`);

// KEYS: the hash, the change list. ARGV: expected version (0: none, the change is the whole
// snapshot), ttl ms, head JSON, the change as JSON ('': too large to keep), the number n of ids
// gone, those n ids, then id and JSON of each item added or changed. Returns the new version, or 0.
const SWAP = redisScript(`
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then return 0 end
local t = redis.call('TIME')
local v = math.max(tonumber(t[1]) * 1000000 + tonumber(t[2]), current + 1)
local text = string.format('%.0f', v)
if current == 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
local n = tonumber(ARGV[5])
for i = 6, 5 + n do redis.call('HDEL', KEYS[1], 'i:' .. ARGV[i]) end
for i = 6 + n, #ARGV, 2 do redis.call('HSET', KEYS[1], 'i:' .. ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], 'v', text, 'h', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if current == 0 or ARGV[4] == '' then
  redis.call('DEL', KEYS[2])
else
  redis.call('RPUSH', KEYS[2], ARGV[1] .. ' ' .. text .. ' ' .. ARGV[4])
  redis.call('LTRIM', KEYS[2], -${CHANGES_KEPT}, -1)
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return text
`);

const versionOf = (text: unknown): number => {
  const version = Number(text);
  if (typeof text !== 'string' || !Number.isSafeInteger(version))
    throw new Error('unexpected snapshot version');
  return version;
};

/** A kept change: `<from> <to> {"h":head,"u":[[id,item]…],"d":[id…]}`. */
function changeOf(entry: unknown): SnapshotChange {
  if (typeof entry !== 'string') throw new Error('unexpected snapshot change');
  const json = entry.slice(entry.indexOf(' ', entry.indexOf(' ') + 1) + 1);
  const { h, u, d } = JSON.parse(json) as { h: unknown; u: [string, unknown][]; d: string[] };
  if (!Array.isArray(u) || !Array.isArray(d)) throw new Error('unexpected snapshot change');
  return { head: h, upserts: u, deletes: d };
}

/** The hash's fields as a whole snapshot. */
function wholeOf(fields: unknown): SnapshotChange {
  if (!Array.isArray(fields)) throw new Error('unexpected snapshot reply');
  let head: unknown;
  const upserts: [string, unknown][] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [field, value] = [fields[i], fields[i + 1]];
    if (typeof field !== 'string' || typeof value !== 'string') throw new Error('unexpected snapshot reply');
    if (field === 'h') head = JSON.parse(value);
    else if (field.startsWith('i:')) upserts.push([field.slice(2), JSON.parse(value)]);
  }
  return { head, upserts, deletes: [] };
}

export class RedisSnapshotStore implements SnapshotStore {
  constructor(
    private readonly client: Redis,
    private readonly keys: KeyNames,
  ) {}

  async get(key: string): Promise<unknown> {
    const raw: unknown = await this.client.get(this.keys.snapshot(key));
    if (raw !== null && typeof raw !== 'string') throw new Error('unexpected snapshot reply');
    return raw === null ? undefined : JSON.parse(raw);
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.client.set(this.keys.snapshot(key), JSON.stringify(value ?? null), 'PX', Math.ceil(ttlMs));
  }

  async read(name: string, known: number): Promise<StoredSnapshot | undefined> {
    const reply = await READ(
      this.client,
      [this.keys.liveSnapshot(name), this.keys.liveChanges(name)],
      [known],
    );
    if (!Array.isArray(reply)) throw new Error('unexpected snapshot reply');
    if (reply.length === 0) return undefined;
    const version = versionOf(reply[0]);
    if (reply.length === 1) return { version, same: true };
    if (reply[1] === 'changes') return { version, changes: reply.slice(2).map(changeOf) };
    if (reply[1] === 'whole') return { version, whole: wholeOf(reply[2]) };
    throw new Error('unexpected snapshot reply');
  }

  async swap(name: string, expected: number, change: SnapshotChange, ttlMs: number): Promise<number> {
    const upserts = change.upserts.flatMap(([id, item]) => [id, JSON.stringify(item)]);
    const head = JSON.stringify(change.head);
    // The change as kept for readers behind: built from the JSON above, not stringified again.
    let kept = '';
    if (expected !== 0) {
      const items: string[] = [];
      for (let i = 0; i < upserts.length; i += 2)
        items.push(`[${JSON.stringify(upserts[i])},${upserts[i + 1]}]`);
      kept = `{"h":${head},"u":[${items.join(',')}],"d":${JSON.stringify(change.deletes)}}`;
      if (Buffer.byteLength(kept) > MAX_KEPT_CHANGE_BYTES) kept = '';
    }
    const reply: unknown = await SWAP(
      this.client,
      [this.keys.liveSnapshot(name), this.keys.liveChanges(name)],
      [expected, Math.ceil(ttlMs), head, kept, change.deletes.length, ...change.deletes, ...upserts],
    );
    return reply === 0 ? 0 : versionOf(reply);
  }
}
