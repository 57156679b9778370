// What Redis sends the gateway, checked before ioredis's parser (redis-parser 3.0.0) sees it: the
// framing of RESP2 replies with every length bounded. The parser trusts lengths: an array header
// over 2^32-1 throws out of the socket's data handler (node-redis-parser issue 65), a bulk length
// whose bytes never come makes it buffer without end, a line without CRLF is copied again with
// each chunk. A stream that fails the check is refused whole: the connection is dropped.

/**
 * One reply's size at most, an array's announced slots counted 8 bytes each. No larger reply could
 * be used: the gateway runs with a 128 MB heap (`npm start`), and what it stores in Redis (cached
 * answers of at most UPSTREAM_MAX_BODY_BYTES, 4 MB by default, snapshots) is far smaller.
 */
/** @internal test seam */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;
/** @internal test seam: Elements of one array: the gateway's own replies have at most a handful. */
export const MAX_ARRAY_LENGTH = 1024 * 1024;
/** @internal test seam: Arrays within arrays: the parser recurses once per level. */
export const MAX_DEPTH = 32;
/** @internal test seam: A simple string or error line (an integer or a length: 20 characters). */
export const MAX_LINE_BYTES = 64 * 1024;

const CR = 13;
const LF = 10;
const SIMPLE = 43; // +
const ERROR = 45; // -
const INTEGER = 58; // :
const BULK = 36; // $
const ARRAY = 42; // *
const NUMBER_LINE_BYTES = 20;

type Step = 'type' | 'line' | 'lf' | 'bulk' | 'bulk-cr' | 'bulk-lf';

/** Why a stream is refused: fixed text, never a byte of what came. */
export type Refusal =
  | 'unknown reply type'
  | 'line too long'
  | 'line not ended by CRLF'
  | 'malformed number'
  | 'bulk string too long'
  | 'bulk string not ended by CRLF'
  | 'array too long'
  | 'arrays nested too deep'
  | 'reply too large';

/** The framing of one connection's replies, fed every chunk in order. */
export class ReplyFrames {
  private step: Step = 'type';
  private type = 0;
  /** The digits of an integer or a length line; only counted for simple strings and errors. */
  private digits = '';
  private lineBytes = 0;
  private bulkLeft = 0;
  /** Elements still due in each array being read, innermost last. */
  private readonly open: number[] = [];
  private replyBytes = 0;
  private refused: Refusal | undefined;

  /** Undefined while what came so far can be replies; otherwise why not, for this chunk and all later ones. */
  check(chunk: Buffer): Refusal | undefined {
    if (this.refused === undefined) this.refused = this.scan(chunk);
    return this.refused;
  }

  private scan(chunk: Buffer): Refusal | undefined {
    let at = 0;
    while (at < chunk.length) {
      const from = at;
      let refusal: Refusal | undefined;
      switch (this.step) {
        case 'type':
          refusal = this.startLine(chunk[at++] ?? 0);
          break;
        case 'line': {
          const cr = chunk.indexOf(CR, at);
          const end = cr === -1 ? chunk.length : cr;
          refusal = this.lineText(chunk, at, end);
          at = cr === -1 ? end : end + 1;
          if (cr !== -1) this.step = 'lf';
          break;
        }
        case 'lf':
          refusal = chunk[at++] === LF ? this.endLine() : 'line not ended by CRLF';
          break;
        case 'bulk': {
          const taken = Math.min(this.bulkLeft, chunk.length - at);
          at += taken;
          this.bulkLeft -= taken;
          if (this.bulkLeft === 0) this.step = 'bulk-cr';
          break;
        }
        case 'bulk-cr':
          if (chunk[at++] === CR) this.step = 'bulk-lf';
          else refusal = 'bulk string not ended by CRLF';
          break;
        case 'bulk-lf':
          if (chunk[at++] === LF) this.element();
          else refusal = 'bulk string not ended by CRLF';
          break;
      }
      if (refusal !== undefined) return refusal;
      // A reply that just ended was counted already; the bytes count toward the one under way.
      if (this.step !== 'type' || this.open.length > 0) this.replyBytes += at - from;
      if (this.replyBytes > MAX_REPLY_BYTES) return 'reply too large';
    }
    return undefined;
  }

  private startLine(type: number): Refusal | undefined {
    if (type !== SIMPLE && type !== ERROR && type !== INTEGER && type !== BULK && type !== ARRAY) {
      return 'unknown reply type';
    }
    this.type = type;
    this.digits = '';
    this.lineBytes = 0;
    this.step = 'line';
    return undefined;
  }

  private lineText(chunk: Buffer, from: number, to: number): Refusal | undefined {
    this.lineBytes += to - from;
    if (this.type === SIMPLE || this.type === ERROR) {
      return this.lineBytes > MAX_LINE_BYTES ? 'line too long' : undefined;
    }
    if (this.lineBytes > NUMBER_LINE_BYTES) return 'malformed number';
    this.digits += chunk.toString('latin1', from, to);
    return undefined;
  }

  private endLine(): Refusal | undefined {
    const text = this.digits;
    if (this.type === SIMPLE || this.type === ERROR) return this.element();
    if (this.type === INTEGER) return /^-?\d{1,19}$/.test(text) ? this.element() : 'malformed number';
    // Null bulk strings and arrays are -1; no other negative length exists.
    if (text === '-1') return this.element();
    if (!/^\d{1,19}$/.test(text)) return 'malformed number';
    const length = Number(text);
    if (this.type === BULK) {
      if (length > MAX_REPLY_BYTES - this.replyBytes) return 'bulk string too long';
      this.bulkLeft = length;
      this.step = length === 0 ? 'bulk-cr' : 'bulk';
      return undefined;
    }
    if (length > MAX_ARRAY_LENGTH) return 'array too long';
    if (length === 0) return this.element();
    if (this.open.length >= MAX_DEPTH) return 'arrays nested too deep';
    this.open.push(length);
    // The parser allocates the array when it reads the header: its slots count before its elements.
    this.replyBytes += 8 * length;
    this.step = 'type';
    return undefined;
  }

  /** One element ended: it completes the arrays it closes, and the reply once none is open. */
  private element(): undefined {
    this.step = 'type';
    while (this.open.length > 0) {
      const last = this.open.length - 1;
      const due = (this.open[last] ?? 1) - 1;
      if (due > 0) {
        this.open[last] = due;
        return undefined;
      }
      this.open.pop();
    }
    this.replyBytes = 0;
    return undefined;
  }
}
