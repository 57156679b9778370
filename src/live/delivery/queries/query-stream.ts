// One client's live query: its first result (revision 1), then, each time its group's evaluation
// differs from what the client last received, one JSON Patch from that to the latest (the wire
// format of @n1ru4l/graphql-live-query-patch-json-patch, whose generateJSONPatch makes it). It is
// pulled: a payload is made when the transport asks for the next, from the latest evaluation, so
// what waits for a slow reader is never more than the one previous result this stream keeps, and
// evaluations a throttled or slow reader missed are folded into one patch. A reader that stops
// reading stops the pulls, so it is judged as a subscriber is: a new result while its transport
// holds more than the cap unsent, or one that waits unread for the stall time, drops it.
import { generateJSONPatch } from '@n1ru4l/graphql-live-query-patch-json-patch';
import type { ExecutionResult } from 'graphql';
import { GatewayError } from '../../../errors';
import type { SubscriberLink } from '../events/backlog';
import type { TooSlowCause } from '../events/event-stream';
import { StallWatch } from '../events/stall';
import type { QueryGroup } from './query-group';
import type { QueryMetrics } from './query-metrics';

/** A payload of a live query: the first result with revision 1, or a patch with the next revision. */
interface LivePayload extends ExecutionResult {
  readonly revision: number;
  readonly patch?: ReturnType<typeof generateJSONPatch>;
}

/** What a live query's stream yields: its payloads, and the error that ends it. */
export type LiveQueryItem = LivePayload | GatewayError;

export interface StreamParts {
  readonly group: QueryGroup;
  /** This client's query as a plain one, read from the upstream: its first result when there is no evaluation yet. */
  readonly first?: () => Promise<ExecutionResult>;
  /** The least interval between two payloads, in ms. */
  readonly intervalMs: number;
  /** Bytes its transport may hold unsent before the reader counts as too slow. */
  readonly capBytes: number;
  /** How long a newer result may wait unread before the reader counts as too slow. */
  readonly stallMs: number;
  /** Called once, before onEnd, when the reader is dropped for reading too slowly. */
  readonly onTooSlow: (cause: TooSlowCause) => void;
  readonly link: SubscriberLink | undefined;
  readonly metrics: QueryMetrics;
  readonly onEnd: () => void;
}

const tooSlow = (capBytes: number): GatewayError =>
  new GatewayError(
    'RATE_LIMITED',
    `Read too slowly: over ${capBytes} bytes of the live query waited unread; query again.`,
  );

const stalled = (stallMs: number): GatewayError =>
  new GatewayError(
    'RATE_LIMITED',
    `Read too slowly: a newer result of the live query waited ${stallMs} ms unread; query again.`,
  );

export class QueryStream implements AsyncIterableIterator<LiveQueryItem> {
  private revision = 0;
  /** The group's revision this stream's client holds. */
  private seen = 0;
  /** The data the client holds (shared with the group's evaluation: never changed). */
  private held: Record<string, unknown> = {};
  private sentAt = Number.NEGATIVE_INFINITY;
  private ended = false;
  private pause: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  /** The transport waits for a payload: it reads. */
  private reading = false;
  /** The error that ended a dropped stream: the next read's, then done. */
  private last: GatewayError | undefined;
  private readonly stall: StallWatch;
  private readonly unwatch: () => void;

  constructor(private readonly parts: StreamParts) {
    const { group, capBytes, stallMs, link } = parts;
    const unsent = () => link?.backlogBytes() ?? 0;
    this.stall = new StallWatch({
      stallMs,
      // Bytes its transport holds unsent, or a newer result it has not asked for.
      waiting: () => this.revision > 0 && (unsent() > 0 || (!this.reading && group.revision > this.seen)),
      unsent,
      onStalled: () => this.drop(stalled(stallMs), 'time'),
    });
    this.unwatch = group.watch(() => {
      if (!this.reading && this.revision > 0 && unsent() > capBytes) this.drop(tooSlow(capBytes), 'size');
    });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<LiveQueryItem> {
    return this;
  }

  async next(): Promise<IteratorResult<LiveQueryItem>> {
    const last = this.last;
    this.last = undefined;
    if (last !== undefined) return { done: false, value: last };
    if (this.ended) return { done: true, value: undefined };
    this.reading = true;
    const item = await (this.revision === 0 ? this.first() : this.change()).finally(() => {
      this.reading = false;
    });
    this.stall.progress();
    if (item === undefined || this.ended) return this.last ? this.next() : this.finish();
    const kind = item instanceof GatewayError ? 'error' : item.revision === 1 ? 'result' : 'patch';
    this.parts.metrics.sent(kind, item instanceof GatewayError ? 0 : Buffer.byteLength(JSON.stringify(item)));
    // An error, or a first result without data (its read refused), is the last payload.
    if (item instanceof GatewayError || (item.revision === 1 && (item.data ?? null) === null)) this.finish();
    this.sentAt = performance.now();
    return { done: false, value: item };
  }

  async return(): Promise<IteratorResult<LiveQueryItem>> {
    return this.finish();
  }

  /** Ends the stream (graceful shutdown): a waiting read completes. */
  complete(): void {
    this.finish();
  }

  /** What it holds beyond the group's: nothing queued (payloads are made as they are read). */
  heldBytes(): number {
    return this.parts.link?.backlogBytes() ?? 0;
  }

  private async first(): Promise<LiveQueryItem | undefined> {
    const { group, first } = this.parts;
    // Admitted on no call (no `first`): the group's first evaluation, however long it takes.
    const evaluated = (await group.latest()) ?? (first ? undefined : await group.after(0, () => this.ended));
    let result: ExecutionResult;
    if (evaluated) result = evaluated.result;
    else if (first) result = await first();
    else return group.ending;
    this.seen = evaluated?.revision ?? 0;
    this.held = (result.data ?? {}) as Record<string, unknown>;
    this.revision = 1;
    return { ...result, revision: 1 };
  }

  private async change(): Promise<LiveQueryItem | undefined> {
    const { group, capBytes, link } = this.parts;
    for (;;) {
      const next = await group.after(this.seen, () => this.ended);
      if (next === undefined) return group.ending;
      await this.throttled();
      if (this.ended) return undefined;
      if ((link?.backlogBytes() ?? 0) > capBytes) {
        this.drop(tooSlow(capBytes), 'size');
        return undefined;
      }
      // The latest by now: what arrived during the wait is folded in.
      const latest = (await group.after(this.seen, () => this.ended)) ?? next;
      this.seen = latest.revision;
      const data = (latest.result.data ?? {}) as Record<string, unknown>;
      const patch = generateJSONPatch(this.held, data);
      if (typeof patch === 'symbol') continue;
      this.held = data;
      this.revision += 1;
      return {
        patch,
        revision: this.revision,
        ...(latest.result.errors ? { errors: latest.result.errors } : {}),
      };
    }
  }

  /** Waits out the interval since the last payload. */
  private async throttled(): Promise<void> {
    const wait = this.sentAt + this.parts.intervalMs - performance.now();
    if (wait <= 0) return;
    await new Promise<void>((resolve) => {
      this.pause = { timer: setTimeout(resolve, wait), resolve };
    });
    this.pause = undefined;
  }

  /** Too slow: its error is the last item, the stream ends, and the transport is dropped. */
  private drop(error: GatewayError, cause: TooSlowCause): void {
    if (this.ended) return;
    this.parts.metrics.sent('error', 0);
    this.parts.onTooSlow(cause);
    this.last = error;
    this.finish();
    this.parts.link?.drop(error.message);
  }

  private finish(): IteratorResult<LiveQueryItem> {
    if (!this.ended) {
      this.ended = true;
      this.stall.stop();
      this.unwatch();
      if (this.pause) {
        clearTimeout(this.pause.timer);
        this.pause.resolve();
      }
      this.parts.group.wake();
      this.parts.onEnd();
    }
    return { done: true, value: undefined };
  }
}
