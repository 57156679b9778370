// The subscriptions this replica delivers to: their limits (in all, and per credential), the
// streams open for each account with the kinds each one needs, and the graceful end of every stream
// on shutdown. Each stream holds a need of the observation (observation/account-observers.ts) from
// its start to its end. Event streams are the one kind of subscriber today; a live query will be
// another, needing several kinds.
import { GatewayError } from '../../errors';
import type { Logger } from '../../log';
import { keyDigest, type UpstreamKey } from '../../upstream';
import { LIVE_KINDS, type LiveKind } from '../kinds/kinds';
import type { LiveSettings } from '../live-setup';
import type { LiveMetrics } from '../metrics';
import type { Observations } from '../observation/observations';
import type { SubscriberLink } from './events/backlog';
import { channelOf } from './events/channel';
import { EventStream, type StreamItem } from './events/event-stream';

const limited = (message: string) => new GatewayError('RATE_LIMITED', message);

/** What an event stream of one kind needs: that kind (one set per kind, shared). */
const NEEDS: ReadonlyMap<LiveKind, ReadonlySet<LiveKind>> = new Map(
  LIVE_KINDS.map((kind) => [kind, new Set([kind])]),
);

export interface SubscriptionParts {
  readonly settings: LiveSettings['live'];
  readonly observations: Observations;
  /** Opens a need of the account's `kinds`; the returned call closes it. */
  readonly need: (key: UpstreamKey, kinds: ReadonlySet<LiveKind>) => () => void;
  readonly metrics: LiveMetrics;
  readonly logger: Logger;
}

export class Subscriptions {
  /** Open streams of each account, with the kinds each one needs. */
  private readonly accounts = new Map<string, Map<EventStream, ReadonlySet<LiveKind>>>();
  private total = 0;
  private closing = false;

  constructor(private readonly parts: SubscriptionParts) {}

  /** Open subscriptions, in all or of one credential. */
  count(apiKey?: string): number {
    return apiKey === undefined ? this.total : (this.accounts.get(keyDigest(apiKey))?.size ?? 0);
  }

  /** Bytes of events held now for every open subscriber (queued, plus unsent in their transports). */
  heldBytes(): number {
    let bytes = 0;
    for (const streams of this.accounts.values())
      for (const stream of streams.keys()) bytes += stream.heldBytes();
    return bytes;
  }

  /**
   * A stream of the credential's events of `kind`; RATE_LIMITED beyond the limits. `link`: the
   * subscriber's transport, dropped when more than LIVE_MAX_SUBSCRIBER_BUFFER_BYTES wait for it.
   */
  events(
    key: UpstreamKey,
    kind: LiveKind,
    includeCurrent: boolean,
    link?: SubscriberLink,
  ): AsyncIterableIterator<StreamItem> {
    if (this.closing) {
      throw new GatewayError(
        'UPSTREAM_UNAVAILABLE',
        'The gateway is shutting down; subscribe again shortly.',
      );
    }
    const { settings, metrics, logger } = this.parts;
    const { maxSubscriptions, maxSubscriptionsPerCredential } = settings;
    if (this.total >= maxSubscriptions) {
      throw limited(`The gateway holds its maximum of ${maxSubscriptions} subscriptions; retry later.`);
    }
    const { digest } = key;
    const streams = this.accounts.get(digest) ?? new Map<EventStream, ReadonlySet<LiveKind>>();
    if (streams.size >= maxSubscriptionsPerCredential) {
      throw limited(
        `At most ${maxSubscriptionsPerCredential} subscriptions per credential; close one to open another.`,
      );
    }
    const needs = NEEDS.get(kind) ?? new Set([kind]);
    let release: () => void = () => {};
    const stream: EventStream = new EventStream({
      channel: channelOf(this.parts.observations, kind, digest),
      includeCurrent,
      onEnd: () => this.left(digest, stream, release),
      onSent: (event) => metrics.sent(kind, event.kind),
      capBytes: settings.maxSubscriberBufferBytes,
      stallMs: settings.maxSubscriberStallMs,
      link,
      onTooSlow: (cause) => {
        metrics.tooSlow(link?.transport ?? 'none', cause);
        logger.info(
          { credential: digest.slice(0, 8), transport: link?.transport ?? 'none', cause },
          'live subscriber dropped: it read too slowly',
        );
      },
      onHeld: (bytes) => metrics.held(bytes),
    });
    streams.set(stream, needs);
    this.accounts.set(digest, streams);
    this.total += 1;
    for (const needed of needs) metrics.subscriptions(needed, 1);
    release = this.parts.need(key, needs);
    return stream;
  }

  /** Completes every open stream and refuses new ones (graceful shutdown). */
  close(): void {
    this.closing = true;
    for (const streams of [...this.accounts.values()])
      for (const stream of [...streams.keys()]) stream.complete();
  }

  private left(digest: string, stream: EventStream, release: () => void): void {
    const streams = this.accounts.get(digest);
    const needs = streams?.get(stream);
    if (streams === undefined || needs === undefined) return;
    streams.delete(stream);
    if (streams.size === 0) this.accounts.delete(digest);
    this.total -= 1;
    for (const needed of needs) this.parts.metrics.subscriptions(needed, -1);
    release();
  }
}
