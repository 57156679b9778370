// How the gateway's Redis connections reach Redis (ioredis's `Connector` option): over TCP or TLS
// as ioredis's own connector does, with each socket guarded so no reply, however malformed, ends
// the process. ioredis hands every chunk to its parser inside the socket's 'data' listener, where
// anything thrown is uncaught: here a chunk first passes the framing check (reply-frames.ts),
// and the listeners run inside a try/catch. A refused or failed chunk destroys the socket with an
// error naming why; ioredis then reports the error, reconnects, and per-process state serves.
import { connect as connectTcp, type NetConnectOpts, type Socket } from 'node:net';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';
import { AbstractConnector, type StandaloneConnectionOptions } from 'ioredis';
import { ReplyFrames } from './reply-frames';

/** Why a Redis connection was dropped by the guard; the message is fixed text, never reply bytes. */
export class RedisReplyRefused extends Error {
  override readonly name = 'RedisReplyRefused';
}

/** Routes the socket's 'data' events through the framing check and a try/catch. */
function guardReplies(socket: Socket): void {
  const frames = new ReplyFrames();
  const emit = socket.emit;
  const refuse = (why: string) => {
    if (!socket.destroyed) socket.destroy(new RedisReplyRefused(`malformed Redis reply: ${why}`));
  };
  socket.emit = function guardedEmit(this: Socket, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'data') return Reflect.apply(emit, this, [event, ...args]);
    const [chunk] = args;
    if (socket.destroyed) return false;
    const refusal = Buffer.isBuffer(chunk) ? frames.check(chunk) : 'not a byte stream';
    if (refusal !== undefined) {
      refuse(refusal);
      return false;
    }
    try {
      return Reflect.apply(emit, this, [event, ...args]);
    } catch {
      // redis-parser or ioredis's reply handling threw on a reply that passed the framing check.
      refuse('the client could not handle it');
      return false;
    }
  } as Socket['emit'];
}

export class GuardedConnector extends AbstractConnector {
  private readonly options: StandaloneConnectionOptions;

  /** ioredis passes its own options: those of `new Redis(url, settings)`, the URL parsed. */
  constructor(options: unknown) {
    const own = options as StandaloneConnectionOptions;
    super(own.disconnectTimeout ?? 2_000);
    this.options = own;
  }

  connect(): Promise<Socket> {
    const { path, host, port, family, tls } = this.options;
    const target: NetConnectOpts = path
      ? { path }
      : { host: host ?? 'localhost', port: port ?? 6379, family };
    this.connecting = true;
    // As ioredis's connector: the socket is made on the next tick, unless disconnect() came first.
    return new Promise((resolve, reject) => {
      process.nextTick(() => {
        if (!this.connecting) {
          reject(new Error('Connection is closed.'));
          return;
        }
        try {
          // rediss:// sets `tls: true` (no options of its own).
          const options: ConnectionOptions | undefined = typeof tls === 'object' ? tls : undefined;
          const socket = tls ? connectTls({ ...target, ...options }) : connectTcp(target);
          socket.once('error', (error) => {
            this.firstError = error;
          });
          guardReplies(socket);
          this.stream = socket;
          resolve(socket);
        } catch (error) {
          reject(error);
        }
      });
    });
  }
}
