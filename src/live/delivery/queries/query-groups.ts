// The live queries open on this replica, grouped: identical ones of one account (same selection:
// document, operation, variables, throttle) share one group and so one evaluation per observation
// (query-group.ts); each client has a stream of its own (query-stream.ts). A group goes with its
// last stream. The groups' evaluations run one at a time (they are CPU work on one thread either
// way), so that each one's CPU, as measured, is its own.
import type { Logger } from '../../../log';
import type { Observations } from '../../observation/observations';
import type { SubscriberLink } from '../events/backlog';
import type { TooSlowCause } from '../events/event-stream';
import { type LiveQueryRequest, QueryGroup } from './query-group';
import type { QueryMetrics } from './query-metrics';
import { QueryStream } from './query-stream';

/**
 * The least interval between two payloads of a live query, whatever its throttle asks: the
 * observation moves once per poll (and at once on a write), so a shorter one would only spend CPU.
 */
const LIVE_QUERY_MIN_INTERVAL_MS = 100;

export interface GroupsParts {
  readonly observations: Observations;
  readonly metrics: QueryMetrics;
  readonly logger: Logger;
  /** LIVE_MAX_SUBSCRIBER_BUFFER_BYTES: unsent bytes a live query's transport may hold. */
  readonly capBytes: number;
  /** LIVE_MAX_SUBSCRIBER_STALL_MS: how long a newer result may wait unread. */
  readonly stallMs: number;
  /** A live query dropped for reading too slowly (counted and logged as subscribers are). */
  readonly onTooSlow: (digest: string, link: SubscriberLink | undefined, cause: TooSlowCause) => void;
}

export class QueryGroups {
  private readonly groups = new Map<string, QueryGroup>();
  /** The last evaluation queued: the next one starts when it has ended (one at a time here). */
  private queued: Promise<unknown> = Promise.resolve();
  private readonly serially = <T>(evaluation: () => Promise<T>): Promise<T> => {
    const run = this.queued.then(evaluation);
    this.queued = run.catch(() => undefined);
    return run;
  };

  constructor(private readonly parts: GroupsParts) {}

  /** A stream of `request` for the account of `digest`; `onEnd` runs once when it ends. */
  open(
    digest: string,
    request: LiveQueryRequest,
    link: SubscriberLink | undefined,
    onEnd: () => void,
  ): QueryStream {
    const { observations, metrics, logger, capBytes, stallMs, onTooSlow } = this.parts;
    const key = `${digest} ${request.selection}`;
    let group = this.groups.get(key);
    if (group === undefined) {
      group = new QueryGroup({ digest, request, observations, metrics, logger, serially: this.serially });
      this.groups.set(key, group);
    }
    const held = group;
    held.members += 1;
    metrics.opened(1);
    return new QueryStream({
      group: held,
      first: request.first,
      intervalMs: Math.max(LIVE_QUERY_MIN_INTERVAL_MS, request.throttleMs),
      capBytes,
      stallMs,
      link,
      metrics,
      onTooSlow: (cause) => onTooSlow(digest, link, cause),
      onEnd: () => {
        metrics.opened(-1);
        held.members -= 1;
        if (held.members === 0) {
          held.close();
          if (this.groups.get(key) === held) this.groups.delete(key);
        }
        onEnd();
      },
    });
  }

  /** Groups open now (identical live queries share one). */
  get size(): number {
    return this.groups.size;
  }
}
