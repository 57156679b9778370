// A Redis stand-in on a loopback ephemeral port that relays to a real redis-server until told to
// misbehave:
// - oversized: every command is answered with an array header longer than 2^32-1;
// - after-handshake: the connection handshake (CLIENT, INFO) is relayed, any other command is
//   answered with `answer` (by default as in `oversized`): clients connect, then get that reply;
// - unknown-commands: every command is refused as unknown, quoting its arguments as Redis does
//   (what a Redis-compatible server without AUTH would say to the password);
// - random: seeded random bytes pour into every connection, the client's end of it ignored as a
//   hostile endpoint may, until the client tears the connection down;
// - delayed: relayed both ways, every reply from redis-server held back `delayMs` (a stalled server).
// Connections open when it turns bad keep going, now answered badly; any other change drops every
// connection, so clients start afresh.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Rng } from '../../src/sandbox/state/rng';

export type BadRedisMode =
  | 'relay'
  | 'oversized'
  | 'after-handshake'
  | 'unknown-commands'
  | 'random'
  | 'delayed';

/** The reply redis-parser 3.0.0 cannot build: `new Array(4294967296)` throws a RangeError. */
export const OVERSIZED_ARRAY_HEADER = '*4294967296\r\n';

const HANDSHAKE = new Set(['client', 'info', 'auth']);

/** The commands in a chunk a client sent (RESP arrays of bulk strings), each as its words. */
function commandsIn(chunk: Buffer): string[][] {
  const text = chunk.toString('latin1');
  const commands: string[][] = [];
  for (const head of text.matchAll(/\*(\d+)\r\n/g)) {
    const words: string[] = [];
    let at = (head.index ?? 0) + head[0].length;
    for (let i = 0; i < Number(head[1]); i += 1) {
      const bulk = /^\$(\d+)\r\n/.exec(text.slice(at));
      if (!bulk) break;
      at += bulk[0].length;
      words.push(text.slice(at, at + Number(bulk[1])));
      at += Number(bulk[1]) + 2;
    }
    commands.push(words);
  }
  return commands;
}

const unknownCommand = ([name = '', ...args]: string[]): string =>
  `-ERR unknown command '${name}', with args beginning with: ${args.map((a) => `'${a}'`).join(' ')}\r\n`;

export class BadRedis {
  private current: BadRedisMode = 'relay';
  private readonly sockets = new Set<Socket>();
  /** The reply to every command after the handshake in `after-handshake` mode. */
  answer = OVERSIZED_ARRAY_HEADER;
  /** How long every reply is held back in `delayed` mode. */
  delayMs = 3_000;
  /** Connections accepted so far. */
  connections = 0;
  /** Replies held back in `delayed` mode so far, and those whose delay ran out (sent, or dropped if closed). */
  heldReplies = 0;
  lateReplies = 0;
  /** Connections given random bytes so far: each got the seed plus its number in that order. */
  randomStreams = 0;

  private constructor(
    private readonly server: Server,
    private readonly redisPort: number,
    private readonly seed: number,
  ) {
    server.on('connection', (socket) => this.accept(socket));
  }

  static async start(options: { redisPort: number; seed?: number }): Promise<BadRedis> {
    const server = createServer({ allowHalfOpen: true });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new BadRedis(server, options.redisPort, options.seed ?? 1);
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  get mode(): BadRedisMode {
    return this.current;
  }

  set mode(next: BadRedisMode) {
    const keep = next === 'oversized' || next === 'random';
    this.current = next;
    for (const socket of this.sockets) {
      if (!keep) socket.destroy();
      else if (next === 'random') this.pour(socket);
    }
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    let redis: Socket | undefined;
    const relay = (chunk: Buffer) => {
      if (redis === undefined) {
        redis = connect({ host: '127.0.0.1', port: this.redisPort });
        redis.on('error', () => socket.destroy());
        redis.on('data', (answer) => {
          if (this.current === 'relay' || this.current === 'after-handshake') socket.write(answer);
          else if (this.current === 'delayed') {
            this.heldReplies += 1;
            setTimeout(() => {
              this.lateReplies += 1;
              if (!socket.destroyed) socket.write(answer);
            }, this.delayMs);
          }
        });
      }
      redis.write(chunk);
    };
    socket.on('end', () => {
      if (this.current !== 'random') socket.end();
    });
    socket.on('close', () => {
      this.sockets.delete(socket);
      redis?.destroy();
    });
    socket.on('data', (chunk) => {
      const commands = commandsIn(chunk);
      const handshake = commands.every(([name = '']) => HANDSHAKE.has(name.toLowerCase()));
      if (this.current === 'unknown-commands') socket.write(commands.map(unknownCommand).join(''));
      else if (this.current === 'relay' || this.current === 'delayed') relay(chunk);
      else if (this.current === 'after-handshake' && handshake) relay(chunk);
      else if (this.current === 'after-handshake') socket.write(this.answer);
      else if (this.current === 'oversized') socket.write(OVERSIZED_ARRAY_HEADER);
    });
    if (this.current === 'random') this.pour(socket);
  }

  /** Random chunks of up to 16 kB every few milliseconds, while the stand-in stays random. */
  private pour(socket: Socket): void {
    const rng = new Rng(this.seed + this.randomStreams);
    this.randomStreams += 1;
    const next = () => {
      if (this.current !== 'random' || socket.destroyed) return;
      const chunk = Buffer.alloc(rng.int(1, 16_384));
      for (let i = 0; i < chunk.length; i += 1) chunk[i] = rng.int(0, 255);
      if (socket.write(chunk)) setTimeout(next, 5);
      else socket.once('drain', next);
    };
    next();
  }
}
