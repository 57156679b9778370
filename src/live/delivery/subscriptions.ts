// The subscriptions this replica delivers to: their limits (in all, and per credential), the
// streams open for each account with the kinds each one needs, and the graceful end of every stream
// on shutdown. Each stream holds a need of the observation (observation/account-observers.ts) from
// its start to its end. Two kinds of stream: an event subscription's (events/), needing its one
// kind, and a live query's (queries/), needing the kinds it reads; both count toward the limits.
import { GatewayError } from '../../errors';
import type { Logger } from '../../log';
import { keyDigest, type UpstreamKey } from '../../upstream';
import { LIVE_KINDS, type LiveKind } from '../kinds/kinds';
import type { LiveSettings } from '../live-setup';
import type { LiveMetrics } from '../metrics';
import type { Observations } from '../observation/observations';
import type { SubscriberLink } from './events/backlog';
import { channelOf } from './events/channel';
import { EventStream, type StreamItem, type TooSlowCause } from './events/event-stream';
import type { LiveQueryRequest } from './queries/query-group';
import { QueryGroups } from './queries/query-groups';
import type { QueryMetrics } from './queries/query-metrics';
import type { QueryStream } from './queries/query-stream';

/** What is kept of one open stream: its kinds, and whether it counts in the subscriptions gauge. */
interface Held {
  readonly needs: ReadonlySet<LiveKind>;
  readonly counted: boolean;
}

/** An open stream of either kind. */
type Stream = EventStream | QueryStream;

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
  readonly queryMetrics: QueryMetrics;
  readonly logger: Logger;
}

export class Subscriptions {
  /** Open streams of each account, with the kinds each one needs. */
  private readonly accounts = new Map<string, Map<Stream, Held>>();
  private readonly queries: QueryGroups;
  private total = 0;
  private closing = false;

  constructor(private readonly parts: SubscriptionParts) {
    const { observations, queryMetrics, logger, settings } = parts;
    this.queries = new QueryGroups({
      observations,
      metrics: queryMetrics,
      logger,
      capBytes: settings.maxSubscriberBufferBytes,
      stallMs: settings.maxSubscriberStallMs,
      onTooSlow: (digest, link, cause) => this.tooSlow(digest, link, cause),
    });
  }

  /** Open subscriptions, in all or of one credential. */
  count(apiKey?: string): number {
    return apiKey === undefined ? this.total : (this.accounts.get(keyDigest(apiKey))?.size ?? 0);
  }

  /** Groups of live queries open (identical ones share one). */
  queryGroups(): number {
    return this.queries.size;
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
    this.admit(key.digest);
    const { settings, metrics } = this.parts;
    const { digest } = key;
    let release: () => void = () => {};
    const stream: EventStream = new EventStream({
      channel: channelOf(this.parts.observations, kind, digest),
      includeCurrent,
      onEnd: () => this.left(digest, stream, release),
      onSent: (event) => metrics.sent(kind, event.kind),
      capBytes: settings.maxSubscriberBufferBytes,
      stallMs: settings.maxSubscriberStallMs,
      link,
      onTooSlow: (cause) => this.tooSlow(digest, link, cause),
      onHeld: (bytes) => metrics.held(bytes),
    });
    release = this.hold(key, stream, { needs: NEEDS.get(kind) ?? new Set([kind]), counted: true });
    return stream;
  }

  /**
   * A live query of the credential: its first result, then its patches (queries/); RATE_LIMITED
   * beyond the limits, which it shares with the event subscriptions.
   */
  liveQuery(key: UpstreamKey, request: LiveQueryRequest, link?: SubscriberLink): QueryStream {
    this.admit(key.digest);
    let release: () => void = () => {};
    const stream: QueryStream = this.queries.open(key.digest, request, link, () =>
      this.left(key.digest, stream, release),
    );
    release = this.hold(key, stream, { needs: request.kinds, counted: false });
    return stream;
  }

  /** A stream of either kind dropped for reading too slowly: counted and logged. */
  private tooSlow(digest: string, link: SubscriberLink | undefined, cause: TooSlowCause): void {
    const transport = link?.transport ?? 'none';
    this.parts.metrics.tooSlow(transport, cause);
    this.parts.logger.info(
      { credential: digest.slice(0, 8), transport, cause },
      'live subscriber dropped: it read too slowly',
    );
  }

  /** Refuses a new stream while shutting down or beyond the limits. */
  private admit(digest: string): void {
    if (this.closing) {
      throw new GatewayError(
        'UPSTREAM_UNAVAILABLE',
        'The gateway is shutting down; subscribe again shortly.',
      );
    }
    const { maxSubscriptions, maxSubscriptionsPerCredential } = this.parts.settings;
    if (this.total >= maxSubscriptions) {
      throw limited(`The gateway holds its maximum of ${maxSubscriptions} subscriptions; retry later.`);
    }
    if ((this.accounts.get(digest)?.size ?? 0) >= maxSubscriptionsPerCredential) {
      throw limited(
        `At most ${maxSubscriptionsPerCredential} subscriptions per credential; close one to open another.`,
      );
    }
  }

  /** Keeps `stream` among the account's and opens its need; returns the need's release. */
  private hold(key: UpstreamKey, stream: Stream, held: Held): () => void {
    const streams = this.accounts.get(key.digest) ?? new Map<Stream, Held>();
    streams.set(stream, held);
    this.accounts.set(key.digest, streams);
    this.total += 1;
    if (held.counted) for (const needed of held.needs) this.parts.metrics.subscriptions(needed, 1);
    return this.parts.need(key, held.needs);
  }

  /** Completes every open stream and refuses new ones (graceful shutdown). */
  close(): void {
    this.closing = true;
    for (const streams of [...this.accounts.values()])
      for (const stream of [...streams.keys()]) stream.complete();
  }

  private left(digest: string, stream: Stream, release: () => void): void {
    const streams = this.accounts.get(digest);
    const held = streams?.get(stream);
    if (streams === undefined || held === undefined) return;
    streams.delete(stream);
    if (streams.size === 0) this.accounts.delete(digest);
    this.total -= 1;
    if (held.counted) for (const needed of held.needs) this.parts.metrics.subscriptions(needed, -1);
    release();
  }
}
