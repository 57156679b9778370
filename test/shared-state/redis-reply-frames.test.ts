// The framing check in front of ioredis's parser: what Redis sends passes in any chunking, each
// kind of malformed reply is refused with its reason, lengths are bounded per reply, and nothing it
// passes makes redis-parser throw (seeded random streams, fed to both).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/sandbox/state/rng';
import {
  MAX_ARRAY_LENGTH,
  MAX_DEPTH,
  MAX_LINE_BYTES,
  MAX_REPLY_BYTES,
  ReplyFrames,
} from '../../src/shared-state/redis/reply-frames';

interface Parser {
  execute(chunk: Buffer): void;
}
type ParserConstructor = new (options: {
  returnBuffers: boolean;
  returnReply: (reply: unknown) => void;
  returnError: (error: Error) => void;
  returnFatalError: (error: Error) => void;
}) => Parser;
// ioredis's parser, as ioredis builds it (DataHandler.js).
const RedisParser = createRequire(import.meta.url)('redis-parser') as ParserConstructor;

/** A parser counting what it returns; a fatal error is its own handled path (ioredis reconnects). */
const parser = () => {
  const seen = { replies: 0, fatal: 0 };
  const instance = new RedisParser({
    returnBuffers: true,
    returnReply: () => {
      seen.replies += 1;
    },
    returnError: () => {
      seen.replies += 1;
    },
    returnFatalError: () => {
      seen.fatal += 1;
    },
  });
  return { instance, seen };
};

const REDIS_SAYS = [
  '+OK\r\n',
  '-ERR wrong number of arguments\r\n',
  ':42\r\n',
  ':-9223372036854775808\r\n',
  '$-1\r\n',
  '$0\r\n\r\n',
  '$7\r\nab\r\ncd\n\r\n',
  '*-1\r\n',
  '*0\r\n',
  '*3\r\n$7\r\nmessage\r\n$12\r\nngw:ev:topic\r\n$2\r\n{}\r\n',
  '*2\r\n*3\r\n:1\r\n:5\r\n:1717171717171\r\n$-1\r\n',
];

/** A reply, well formed most of the time, with lengths and numbers from the edges of what parses. */
function randomReply(rng: Rng, depth: number): string {
  const odd = () => rng.next() < 0.1;
  const length = () =>
    odd()
      ? rng.pick(['-2', '4294967296', '1e3', '99999999999999999999', ''])
      : rng.pick(['0', '1', '2', '3', '-1']);
  const word = () => rng.pick(['OK', 'QUEUED', 'ERR no', '{"a":1}', '']) + (odd() ? '\r' : '');
  switch (rng.int(0, depth < 3 ? 8 : 6)) {
    case 0:
      return `+${word()}\r\n`;
    case 1:
      return `-${word()}\r\n`;
    case 2:
      return `:${odd() ? rng.pick(['x', '4294967296', '']) : rng.pick(['0', '-5', '42', '9223372036854775807'])}\r\n`;
    case 3:
    case 4: {
      const n = length();
      const size = /^\d$/.test(n) ? Number(n) : rng.int(0, 4);
      return `$${n}\r\n${'b'.repeat(odd() ? size + 1 : size)}\r\n`;
    }
    case 5:
    case 6:
      return odd() ? String.fromCharCode(rng.int(0, 255)) : '+OK\r\n';
    default: {
      const n = length();
      const count = /^\d$/.test(n) ? Number(n) : rng.int(0, 3);
      return `*${n}\r\n${Array.from({ length: count }, () => randomReply(rng, depth + 1)).join('')}`;
    }
  }
}

const refusalOf = (...chunks: (string | Buffer)[]) => {
  const frames = new ReplyFrames();
  let refusal: string | undefined;
  for (const chunk of chunks)
    refusal = frames.check(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'latin1'));
  return refusal;
};

describe('the framing check of Redis replies', () => {
  it('passes what Redis sends, whole or byte by byte, and redis-parser reads the same replies', () => {
    const stream = Buffer.from(REDIS_SAYS.join(''), 'latin1');
    expect(refusalOf(stream)).toBeUndefined();
    const frames = new ReplyFrames();
    const { instance, seen } = parser();
    for (let i = 0; i < stream.length; i += 1) {
      const byte = stream.subarray(i, i + 1);
      expect(frames.check(byte)).toBeUndefined();
      instance.execute(byte);
    }
    expect(seen).toEqual({ replies: REDIS_SAYS.length, fatal: 0 });
  });

  it.each([
    ['HTTP/1.1 400 Bad Request\r\n', 'unknown reply type'],
    ['*4294967296\r\n', 'array too long'],
    [`*${MAX_ARRAY_LENGTH + 1}\r\n`, 'array too long'],
    [`$${MAX_REPLY_BYTES + 1}\r\n`, 'bulk string too long'],
    ['$-2\r\n', 'malformed number'],
    ['*1x\r\n', 'malformed number'],
    [':12a\r\n', 'malformed number'],
    [`:${'9'.repeat(21)}`, 'malformed number'],
    ['+OK\rX', 'line not ended by CRLF'],
    [`-${'e'.repeat(MAX_LINE_BYTES + 1)}`, 'line too long'],
    ['$3\r\nabcd', 'bulk string not ended by CRLF'],
    ['*1\r\n'.repeat(MAX_DEPTH + 1), 'arrays nested too deep'],
    // Slots count 8 bytes each: eight nested arrays of 2^20 announce 64 MiB before any element.
    [`*${MAX_ARRAY_LENGTH}\r\n`.repeat(8), 'reply too large'],
  ])('refuses %j: %s', (input, reason) => {
    expect(refusalOf(input)).toBe(reason);
  });

  it('passes the largest array, and keeps refusing once it refused', () => {
    expect(refusalOf(`*${MAX_ARRAY_LENGTH}\r\n`)).toBeUndefined();
    expect(refusalOf('*4294967296\r\n', '+OK\r\n')).toBe('array too long');
  });

  it('bounds each reply, not the connection', () => {
    // Three bulk strings just under the bound: nearly three times it in all.
    const size = MAX_REPLY_BYTES - 1024;
    const reply = Buffer.concat([Buffer.from(`$${size}\r\n`), Buffer.alloc(size, 0x61), Buffer.from('\r\n')]);
    const frames = new ReplyFrames();
    for (let i = 0; i < 3; i += 1) expect(frames.check(reply)).toBeUndefined();
    expect(frames.check(Buffer.from('+OK\r\n'))).toBeUndefined();
  });

  it('passes nothing that makes redis-parser throw, in random bytes or random replies', () => {
    let passed = 0;
    let bareThrows = 0;
    for (let seed = 1; seed <= 2_000; seed += 1) {
      const rng = new Rng(seed);
      const bytes =
        seed % 2 === 0
          ? Buffer.from(Array.from({ length: 20 }, () => randomReply(rng, 0)).join(''), 'latin1')
          : Buffer.from(Array.from({ length: 2_000 }, () => rng.int(0, 255)));
      const frames = new ReplyFrames();
      const guarded = parser();
      const bare = parser();
      for (let at = 0; at < bytes.length; ) {
        const chunk = bytes.subarray(at, at + rng.int(1, 64));
        at += chunk.length;
        try {
          bare.instance.execute(chunk);
        } catch {
          bareThrows += 1;
        }
        if (frames.check(chunk) !== undefined) break;
        expect(() => guarded.instance.execute(chunk)).not.toThrow();
        expect(guarded.seen.fatal).toBe(0);
      }
      passed += guarded.seen.replies;
    }
    // The streams reach both sides: redis-parser alone throws on some, the check passes many replies.
    expect(bareThrows).toBeGreaterThan(10);
    expect(passed).toBeGreaterThan(1_000);
  });
});
