// The gateway's two connections to Redis (REDIS_URL): one for commands, one subscribed for pub/sub.
// Both fail fast instead of queueing while Redis is away (callers fall back to per-process state at
// once) and keep reconnecting in the background. The connection tells whether Redis is usable now,
// logs each outage once and each recovery once, and feeds /readiness and the metrics.
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../log';

/** connecting: not yet reached since start; up: both connections ready; down: an outage. */
export type RedisState = 'connecting' | 'up' | 'down';

/** What the fallback wrappers need to know about Redis. */
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

/** Reconnect delays: quick at first, then every 2 s for as long as the outage lasts. */
export const reconnectDelay = (attempt: number): number => Math.min(100 * 2 ** Math.min(attempt, 5), 2_000);

/** Why a connection failed, without anything from the URL beyond what the error itself names. */
const reasonOf = (error: unknown): string => {
  if (!(error instanceof Error)) return 'unknown';
  const code = (error as NodeJS.ErrnoException).code;
  return (code ?? error.message).slice(0, 120);
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
  private readonly listeners = new Set<(state: RedisState) => void>();
  private readonly logger: Logger | undefined;

  constructor(options: RedisConnectionOptions) {
    this.logger = options.logger;
    const { timeoutMs } = options;
    const settings: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      retryStrategy: reconnectDelay,
      connectionName: 'ngrok-graphql-gateway',
    };
    this.client = new Redis(options.url, settings);
    this.subscriber = new Redis(options.url, settings);
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
        this.lastError = reasonOf(error);
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
      { redis: this.current, reason: reasonOf(error) },
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
