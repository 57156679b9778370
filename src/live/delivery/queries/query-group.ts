// The live queries of one account on this replica that ask the same thing (document, operation,
// variables, throttle): evaluated once per observation, however many clients hold them. The group
// listens to the notices of the kinds its query reads (observation/observations.ts); on each it
// reads every kind's latest complete observation and evaluates the query over them, with no
// upstream call (the evaluation's lookups read the observation: lookups/observation-source.ts).
// Notices that arrive while it evaluates are folded into one more evaluation. A kind not yet
// observed holds the evaluation back: never a result built from a half-walked list.
import type { ExecutionResult } from 'graphql';
import { GatewayError } from '../../../errors';
import type { Logger } from '../../../log';
import type { Observation } from '../../../lookups';
import { KINDS, type LiveKind } from '../../kinds/kinds';
import type { FeedMessage } from '../../observation/feed';
import type { Observations } from '../../observation/observations';
import { isObserved } from '../../observation/snapshots/snapshot';
import type { QueryMetrics } from './query-metrics';

/** What a live query asks for, as the gateway's execution hands it over (gateway/live-queries/). */
export interface LiveQueryRequest {
  /** What names it: identical live queries of one credential share one evaluation. */
  readonly selection: string;
  /** The observed kinds it reads. */
  readonly kinds: ReadonlySet<LiveKind>;
  /** The least interval between two of its payloads, in ms (its @live throttle), 0 for none. */
  readonly throttleMs: number;
  /** The query evaluated over one observation: no upstream call. */
  readonly evaluate: (observation: Observation) => Promise<ExecutionResult>;
  /**
   * The query as a plain one: its first result when the account has no observation yet. Absent when
   * it was admitted on no upstream call: its first result is then the group's first evaluation.
   */
  readonly first?: () => Promise<ExecutionResult>;
}

/** One evaluation: its result, and its revision in the group (1, 2, …; a new one only when it differs). */
export interface Evaluated {
  readonly result: ExecutionResult;
  readonly revision: number;
  /** The result as JSON: what tells two evaluations apart. */
  readonly json: string;
}

export interface GroupParts {
  readonly digest: string;
  /**
   * Runs an evaluation after the ones queued before it on this replica (query-groups.ts): one at a
   * time, so the process CPU measured across one is its own, not that of others interleaved with it.
   */
  readonly serially: <T>(evaluation: () => Promise<T>) => Promise<T>;
  readonly request: LiveQueryRequest;
  readonly observations: Observations;
  readonly metrics: QueryMetrics;
  readonly logger: Logger;
}

const endedBy = (message: Extract<FeedMessage, { type: 'ended' }>): GatewayError =>
  new GatewayError(message.code, message.message, message.upstream ? { upstream: message.upstream } : {});

export class QueryGroup {
  private evaluated: Evaluated | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private wakers = new Set<() => void>();
  /** Told of each new revision, read or not (a stream judges its reader by them). */
  private readonly watchers = new Set<() => void>();
  private readonly detach: () => void;
  /** Resolves once notices published from now on reach the group (Redis confirmed its subscription). */
  readonly listening: Promise<void>;
  /** Set when the observation ended (the upstream refused the credential, or a list grew too large). */
  ending: GatewayError | undefined;
  /** Streams that hold the group. */
  members = 0;

  constructor(private readonly parts: GroupParts) {
    const { digest, request, observations } = parts;
    this.detach = observations.listen(digest, request.kinds, (_kind, message) => {
      if (message.type === 'ended') this.end(endedBy(message));
      else this.changed();
    });
    this.listening = observations.listening(digest, request.kinds);
  }

  /** The latest evaluation; made now when there is none yet and every kind has an observation. */
  async latest(): Promise<Evaluated | undefined> {
    await this.listening;
    if (this.evaluated === undefined) {
      this.changed();
      await this.running;
    }
    return this.evaluated;
  }

  /** The evaluation past `revision`, once there is one; undefined when the group ends first. */
  async after(revision: number, stopped: () => boolean): Promise<Evaluated | undefined> {
    for (;;) {
      if (this.ending !== undefined || stopped()) return undefined;
      const evaluated = this.evaluated;
      if (evaluated !== undefined && evaluated.revision > revision) return evaluated;
      await new Promise<void>((wake) => this.wakers.add(wake));
    }
  }

  /** The latest revision made (0: none yet). */
  get revision(): number {
    return this.evaluated?.revision ?? 0;
  }

  /** Calls `watcher` on each new revision from now on; the returned call stops it. */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Wakes every stream waiting in `after` (one of them stopped, or the group ended). */
  wake(): void {
    const wakers = this.wakers;
    this.wakers = new Set();
    for (const wake of wakers) wake();
  }

  close(): void {
    this.detach();
    this.wake();
  }

  private end(error: GatewayError): void {
    this.ending ??= error;
    this.wake();
  }

  private changed(): void {
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.evaluate().finally(() => {
      this.running = undefined;
      if (!this.again) return;
      this.again = false;
      this.changed();
    });
  }

  private async evaluate(): Promise<void> {
    const { request, metrics, logger } = this.parts;
    const observation = await this.observation();
    if (observation === undefined) return;
    let started = process.cpuUsage();
    try {
      const { result, json } = await this.parts.serially(async () => {
        started = process.cpuUsage();
        const result = await request.evaluate(observation);
        return { result, json: JSON.stringify(result) };
      });
      const changed = json !== this.evaluated?.json;
      metrics.evaluated(changed ? 'changed' : 'unchanged', process.cpuUsage(started));
      if (!changed) return;
      this.evaluated = { result, json, revision: (this.evaluated?.revision ?? 0) + 1 };
      this.wake();
      for (const watcher of this.watchers) watcher();
    } catch (error) {
      metrics.evaluated('failed', process.cpuUsage(started));
      // Its name only: an error's message or stack may carry what a log must not.
      logger.warn(
        { credential: this.parts.digest.slice(0, 8), err: { name: (error as Error)?.name } },
        'live query evaluation failed',
      );
    }
  }

  /** Every kind's latest complete observation, or undefined while one of them has none. */
  private async observation(): Promise<Observation | undefined> {
    const { digest, request, observations } = this.parts;
    const kinds = [...request.kinds];
    const snapshots = await Promise.all(kinds.map((kind) => observations.latest(kind, digest)));
    const observation = new Map<(typeof KINDS)[LiveKind]['resource'], readonly { readonly id: string }[]>();
    for (const [i, kind] of kinds.entries()) {
      const snapshot = snapshots[i];
      if (!isObserved(snapshot)) return undefined;
      observation.set(KINDS[kind].resource, snapshot.items);
    }
    return observation;
  }
}
