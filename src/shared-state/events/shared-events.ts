// The event target behind yoga's createPubSub for live events: while Redis is up, events go
// through Redis pub/sub (@graphql-yoga/redis-event-target) and reach subscribers on every replica;
// while it is down they reach this replica's own subscribers directly. Listeners are kept here, one
// Redis subscription per topic with listeners, so nothing a subscriber does survives its leaving.
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type {
  TypedEventListenerOrEventListenerObject,
  TypedEventTarget,
} from '@graphql-yoga/typed-event-target';
import type { Redis } from 'ioredis';
import type { RedisLink } from '../redis/connection';
import type { KeyNames } from '../redis/keys';

type Listener = TypedEventListenerOrEventListenerObject<CustomEvent>;

export interface SharedEventsOptions {
  readonly link: RedisLink;
  readonly client: Redis;
  readonly subscriber: Redis;
  readonly keys: KeyNames;
}

/**
 * The client with `methods` made unable to reject: redis-event-target calls publish and subscribe
 * without handling their promises, and an outage must not become an unhandled rejection.
 */
function quiet(client: Redis, onFailure: (method: string, args: unknown[], error: unknown) => void): Redis {
  const guarded = new Set(['publish', 'subscribe', 'unsubscribe']);
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || !guarded.has(property)) return value.bind(target);
      return (...args: unknown[]) =>
        (value.apply(target, args) as Promise<unknown>).catch((error: unknown) =>
          onFailure(property, args, error),
        );
    },
  });
}

/** What a message that is not JSON parses to: anyone able to publish on Redis could send one. */
const UNREADABLE = Symbol('unreadable message');

/** JSON, except that a message it cannot parse is dropped instead of thrown in the socket's data handler. */
const tolerantJson = {
  stringify: (message: unknown): string => JSON.stringify(message),
  parse: (message: string): unknown => {
    try {
      return JSON.parse(message);
    } catch {
      return UNREADABLE;
    }
  },
};

const call = (listener: Listener, event: CustomEvent): void => {
  if (typeof listener === 'function') listener(event);
  else listener.handleEvent(event);
};

export class SharedEventTarget extends EventTarget implements TypedEventTarget<CustomEvent> {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** One relay per topic, registered on the Redis target: Redis messages to local listeners. */
  private readonly relays = new Map<string, (event: CustomEvent) => void>();
  private readonly redis: TypedEventTarget<CustomEvent>;

  constructor(private readonly options: SharedEventsOptions) {
    super();
    const onFailure = (method: string, args: unknown[], error: unknown) => {
      options.link.commandFailed(error);
      // A publish that Redis did not take still reaches this replica's subscribers.
      const [channel, message] = args;
      if (method === 'publish' && typeof channel === 'string' && typeof message === 'string') {
        this.deliver(this.topicOf(channel), message === '' ? null : JSON.parse(message));
      }
    };
    this.redis = createRedisEventTarget<CustomEvent>({
      publishClient: quiet(options.client, onFailure),
      subscribeClient: quiet(options.subscriber, onFailure),
      serializer: tolerantJson,
    });
    // Subscriptions made during an outage failed: make them again once Redis is back.
    options.link.onChange((state) => {
      if (state !== 'up' || this.relays.size === 0) return;
      const channels = [...this.relays.keys()].map((topic) => options.keys.channel(topic));
      options.subscriber.subscribe(...channels).catch((error: unknown) => options.link.commandFailed(error));
    });
  }

  /** Topics with listeners on this replica (tests, bounds). */
  get topics(): number {
    return this.listeners.size;
  }

  /**
   * Resolves once Redis has confirmed this replica's subscription of `topic` (at once while Redis is
   * down): from then on what any replica publishes reaches the listeners here. Redis answers a
   * connection's commands in order, so a second SUBSCRIBE is confirmed after the first.
   */
  async subscribed(topic: string): Promise<void> {
    if (!this.relays.has(topic) || !this.options.link.up) return;
    await this.options.subscriber
      .subscribe(this.options.keys.channel(topic))
      .catch((error: unknown) => this.options.link.commandFailed(error));
  }

  override addEventListener(type: string, listener: Listener | null): void {
    if (listener === null) return;
    let set = this.listeners.get(type);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(type, set);
      const relay = (event: CustomEvent) => {
        if (event.detail !== UNREADABLE) this.deliver(type, event.detail);
      };
      this.relays.set(type, relay);
      this.redis.addEventListener(this.options.keys.channel(type), relay);
    }
    set.add(listener);
  }

  override removeEventListener(type: string, listener: Listener | null): void {
    const set = this.listeners.get(type);
    if (set === undefined || listener === null) return;
    set.delete(listener);
    if (set.size > 0) return;
    this.listeners.delete(type);
    const relay = this.relays.get(type);
    this.relays.delete(type);
    if (relay) this.redis.removeEventListener(this.options.keys.channel(type), relay);
  }

  override dispatchEvent(event: CustomEvent): boolean {
    if (!this.options.link.up) {
      this.deliver(event.type, event.detail);
      return true;
    }
    return this.redis.dispatchEvent(
      new CustomEvent(this.options.keys.channel(event.type), { detail: event.detail }),
    );
  }

  private deliver(topic: string, detail: unknown): void {
    const set = this.listeners.get(topic);
    if (set === undefined) return;
    const event = new CustomEvent(topic, { detail });
    for (const listener of [...set]) call(listener, event);
  }

  private topicOf(channel: string): string {
    return channel.slice(this.options.keys.channel('').length);
  }
}
