// The gateway's two connections to Redis (REDIS_URL): one for commands, one subscribed for pub/sub.
// Both fail fast instead of queueing while Redis is away (callers fall back to per-process state at
// once) and keep reconnecting in the background. The connection tells whether Redis is usable now,
// logs each outage once and each recovery once, and feeds /readiness and the metrics. A malformed
// reply is an outage like any other: the connector drops the connection (guarded-connector.ts).
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../../log';
import { GuardedConnector, RedisReplyRefused } from './guarded-connector';

/** connecting: not yet reached since start; up: both connections ready; down: an outage. */
export type RedisState = 'connecting' | 'up' | 'down';

/** What the fallback wrapper (../fallback.ts) needs to know about Redis. */
export interface RedisLink {
  readonly up: boolean;
  /** Called with each new state; returns the unsubscribe function. */
  onChange(listener: (state: RedisState) => void): () => void;
  /** A command failed while the connection looked up (a timeout, a hung server). */
  commandFailed(error: unknown): void;
}

export interface RedisConnectionOptions {
  readonly url: string;
  /** Connect and command timeout: past it a call falls back to per-process state. */
  readonly timeoutMs: number;
  readonly logger?: Logger;
}

/** The longest reconnect delay: every 2 s for as long as an outage lasts. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/** Reconnect delays: quick at first, then the longest. */
const reconnectDelay = (attempt: number): number =>
  Math.min(100 * 2 ** Math.min(attempt, 5), MAX_RECONNECT_DELAY_MS);

/**
 * Why a connection or command failed, without the password: a server's error may quote the command
 * it refused (one without AUTH quotes the password), and ioredis quotes a reply it did not expect.
 */
const reasonOf = (error: unknown, password: string): string => {
  if (!(error instanceof Error)) return 'unknown';
  const code = (error as NodeJS.ErrnoException).code;
  const text = (code ?? error.message).replace(/ Last (reply|error): [\s\S]*$/, '');
  return (password === '' ? text : text.replaceAll(password, '***')).slice(0, 120);
};

export class RedisConnection implements RedisLink {
  readonly client: Redis;
  readonly subscriber: Redis;
  private readonly ready = new Set<Redis>();
  private current: RedisState = 'connecting';
  private since = Date.now();
  private lastError = 'unknown';
  private commandFailureLogged = false;
  private closed = false;
  /** Connections whose last one was dropped for a malformed reply: they wait the longest delay. */
  private readonly refused = new Set<Redis>();
  private readonly listeners = new Set<(state: RedisState) => void>();
  private readonly logger: Logger | undefined;
  private readonly password: string;

  constructor(options: RedisConnectionOptions) {
    this.logger = options.logger;
    this.password = decodeURIComponent(new URL(options.url).password);
    const { timeoutMs } = options;
    const settings = (retryStrategy: (attempt: number) => number): RedisOptions => ({
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      retryStrategy,
      connectionName: 'ngrok-graphql-gateway',
      Connector: GuardedConnector,
      // ioredis would resubscribe with a promise nobody handles: a SUBSCRIBE that then fails is an
      // unhandled rejection, which ends the process. SharedEventTarget resubscribes once Redis is up.
      autoResubscribe: false,
    });
    // A server that sent what no Redis sends is not asked again at once, even right after a handshake.
    const delayOf = (connection: () => Redis) => (attempt: number) =>
      this.refused.delete(connection()) ? MAX_RECONNECT_DELAY_MS : reconnectDelay(attempt);
    this.client = new Redis(options.url, settings(delayOf(() => this.client)));
    this.subscriber = new Redis(options.url, settings(delayOf(() => this.subscriber)));
    for (const connection of [this.client, this.subscriber]) {
      connection.on('ready', () => {
        this.ready.add(connection);
        this.update('ready');
      });
      connection.on('close', () => {
        this.ready.delete(connection);
        this.update('close');
      });
      // Every failed reconnect emits one; the state change below is what gets logged.
      connection.on('error', (error: unknown) => {
        this.lastError = reasonOf(error, this.password);
        if (error instanceof RedisReplyRefused) this.refused.add(connection);
      });
    }
  }

  get state(): RedisState {
    return this.current;
  }

  get up(): boolean {
    return this.current === 'up';
  }

  /** For the /readiness body: the state and since when (ISO time). */
  describe(): { state: RedisState; since: string } {
    return { state: this.current, since: new Date(this.since).toISOString() };
  }

  onChange(listener: (state: RedisState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  commandFailed(error: unknown): void {
    if (this.commandFailureLogged || this.closed) return;
    this.commandFailureLogged = true;
    this.logger?.warn(
      { redis: this.current, reason: reasonOf(error, this.password) },
      'A Redis command failed: this call used per-process state (logged once until Redis recovers)',
    );
  }

  /** Resolves once both connections are ready (tests, start-up); never rejects. */
  whenUp(): Promise<void> {
    if (this.up) return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.onChange((state) => {
        if (state !== 'up') return;
        off();
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.client.disconnect();
    this.subscriber.disconnect();
  }

  private update(event: 'ready' | 'close'): void {
    if (this.closed) return;
    // Until both connections were ready once, one being ready is still "connecting".
    const starting = event === 'ready' && this.current === 'connecting';
    const next: RedisState = this.ready.size === 2 ? 'up' : starting ? 'connecting' : 'down';
    if (next === this.current) return;
    const previous = this.current;
    this.current = next;
    this.since = Date.now();
    if (next === 'up') {
      this.commandFailureLogged = false;
      this.lastError = 'connection closed';
      if (previous === 'connecting') this.logger?.info('Redis connected: shared state lives in Redis');
      else this.logger?.info('Redis reachable again: shared state is back in Redis');
    } else {
      this.logger?.warn(
        { reason: this.lastError },
        'Redis unreachable: serving with per-process state until it returns (logged once per outage)',
      );
    }
    for (const listener of [...this.listeners]) listener(next);
  }
}
