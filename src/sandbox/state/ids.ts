// ngrok ids are KSUIDs: 4 bytes of seconds since the KSUID epoch + 16 random bytes, base62-encoded
// to 27 characters. The alphabet is in ASCII order, so comparing ids as strings compares their times.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KSUID_EPOCH_SECONDS = 1_400_000_000;
const PAYLOAD_BYTES = 16;
const ID_SUFFIX_LENGTH = 27;

/** `prefix_` + 27 base62 characters, the shape of every id the API hands out. */
export const ID_PATTERN = /^([a-z]+)_([0-9A-Za-z]{27})$/;

function toBase62(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(ID_SUFFIX_LENGTH, '0');
}

function fromBase62(text: string): bigint {
  let value = 0n;
  for (const char of text) value = value * 62n + BigInt(ALPHABET.indexOf(char));
  return value;
}

function secondsOf(date: Date): number {
  const seconds = Math.floor(date.getTime() / 1000) - KSUID_EPOCH_SECONDS;
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 0xffff_ffff) {
    throw new RangeError(`date out of the id range: ${date.toISOString()}`);
  }
  return seconds;
}

/** The 27-character suffix for a time and a 16-byte payload (deterministic generators pass their own). */
export function ksuidSuffix(date: Date, payload: Uint8Array): string {
  if (payload.length !== PAYLOAD_BYTES) throw new RangeError('a KSUID payload is 16 bytes');
  const bytes = new Uint8Array(4 + PAYLOAD_BYTES);
  new DataView(bytes.buffer).setUint32(0, secondsOf(date));
  bytes.set(payload, 4);
  return toBase62(bytes);
}

// Ids made in the same second get payload+1 instead of fresh randomness, so ids minted one after
// another in this process still sort in creation order (as KSUID sequences do).
let lastSeconds = -1;
let lastPayload = new Uint8Array(PAYLOAD_BYTES);

function nextPayload(seconds: number): Uint8Array {
  if (seconds !== lastSeconds) {
    lastSeconds = seconds;
    lastPayload = new Uint8Array(randomBytes(PAYLOAD_BYTES));
    return lastPayload;
  }
  const next = new Uint8Array(lastPayload);
  for (let i = PAYLOAD_BYTES - 1; i >= 0; i--) {
    next[i] = ((next[i] ?? 0) + 1) & 0xff;
    if (next[i] !== 0) break;
  }
  lastPayload = next;
  return next;
}

/** A fresh id such as `tn_32ELFeTyzStvllGupngXcSO5GUy` for `date` (default now); prefix with or without `_`. */
export function newId(prefix: string, date: Date = new Date()): string {
  const bare = prefix.replace(/_$/, ''); // accept 'tn' and 'tn_'
  if (!/^[a-z]+$/.test(bare)) throw new TypeError(`bad id prefix: ${prefix}`);
  return `${bare}_${ksuidSuffix(date, nextPayload(secondsOf(date)))}`;
}

/** The value of the `ngrok-operation-id` header and of `details.operation_id`. */
export function operationId(): string {
  return newId('op');
}

/** The creation time encoded in an id, or undefined when it is not a well-formed id. */
export function idTime(id: string): Date | undefined {
  const match = ID_PATTERN.exec(id);
  if (!match?.[2]) return undefined;
  const seconds = Number(fromBase62(match[2]) >> 128n);
  return new Date((seconds + KSUID_EPOCH_SECONDS) * 1000);
}
