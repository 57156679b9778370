// Where the JSON log lines go: stdout, in batches, never waiting on it. Lines are gathered and
// written together (one system call, which wakes the process reading stdout, per few kilobytes
// instead of per line: 4 % of a loaded gateway's time), at most `flushMs` after they were logged.
// At most `maxBytes` wait for a stdout that does not drain; lines beyond are dropped. What is left
// at exit (a crash's exit included, not a SIGKILL) is written synchronously, within `exitBudgetMs`.
// Written here rather than with pino.destination (sonic-boom), whose flush at exit retries a write
// that failed with anything but EAGAIN forever: with stdout a closed pipe (`| head -1`), the write
// fails with EPIPE and the process never exits. Here a closed pipe ends the output, a full pipe is
// given up at exit, and neither delays the gateway or its shutdown.
import { write, writeSync } from 'node:fs';

interface OutputOptions {
  /** The file descriptor written to (1: stdout). */
  readonly fd: number;
  /** Bytes gathered before a write. */
  readonly batchBytes: number;
  /** The longest a line waits before it is written. */
  readonly flushMs: number;
  /** Bytes held at most (waiting and being written); a line beyond is dropped. */
  readonly maxBytes: number;
  /** At exit, how long a full pipe is waited on before what is left is given up. */
  readonly exitBudgetMs: number;
}

/** How long an EAGAIN (a full pipe) is waited on before the write is tried again. */
const RETRY_MS = 10;

/** A pino destination (it needs only `write`). */
export class BatchedOutput {
  private waiting: string[] = [];
  private waitingBytes = 0;
  /** The bytes of the write started and not yet done (or retried after EAGAIN). */
  private current: Buffer | undefined;
  /** True while fs.write holds `current` (at exit its outcome is unknown: it is not written again). */
  private writing = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly atExit = () => this.flushSync();

  constructor(private readonly options: OutputOptions) {
    this.timer = setInterval(() => this.flush(), options.flushMs);
    this.timer.unref();
    process.on('exit', this.atExit);
  }

  write(line: string): boolean {
    if (this.closed) return true;
    const bytes = Buffer.byteLength(line);
    if (this.waitingBytes + (this.current?.length ?? 0) + bytes > this.options.maxBytes) return true;
    this.waiting.push(line);
    this.waitingBytes += bytes;
    if (this.waitingBytes >= this.options.batchBytes) this.flush();
    return true;
  }

  /** Starts writing what waits, unless a write is under way (it goes on with the rest when done). */
  flush(): void {
    if (this.closed || this.current !== undefined || this.waitingBytes === 0) return;
    this.send(this.take());
  }

  /** Writes what is left now, synchronously; a full pipe is given up after `exitBudgetMs`. */
  flushSync(): void {
    if (this.closed) return;
    let rest = Buffer.concat([this.writing || !this.current ? Buffer.alloc(0) : this.current, this.take()]);
    this.current = undefined;
    const until = Date.now() + this.options.exitBudgetMs;
    while (rest.length > 0) {
      try {
        rest = rest.subarray(writeSync(this.options.fd, rest));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() >= until) break;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      }
    }
  }

  /** Stops writing: what waits is dropped and later lines too. */
  close(): void {
    this.closed = true;
    this.waiting = [];
    this.waitingBytes = 0;
    this.current = undefined;
    clearInterval(this.timer);
    process.off('exit', this.atExit);
  }

  private take(): Buffer {
    const bytes = Buffer.from(this.waiting.join(''));
    this.waiting = [];
    this.waitingBytes = 0;
    return bytes;
  }

  private send(bytes: Buffer): void {
    this.current = bytes;
    this.writing = true;
    write(this.options.fd, bytes, 0, bytes.length, null, (error, written) => {
      this.writing = false;
      if (this.closed) return;
      if (error) {
        // A full pipe: try again shortly. Anything else (EPIPE: the reader is gone) ends the output.
        if (error.code === 'EAGAIN') setTimeout(() => this.resend(bytes), RETRY_MS).unref();
        else this.close();
        return;
      }
      if (written < bytes.length) return this.send(bytes.subarray(written));
      this.current = undefined;
      if (this.waitingBytes >= this.options.batchBytes) this.flush();
    });
  }

  private resend(bytes: Buffer): void {
    if (!this.closed && this.current === bytes && !this.writing) this.send(bytes);
  }
}
