// A subscription's events executed an observation at a time: the events one observation (a walk, or
// a write) brings a subscriber are executed together, up to 100 at once, so their Ref.node loads
// reach one DataLoader dispatch per kind and level (one filtered list per 100 ids) instead of a
// batch per event; with no join selected each event runs as it comes. Each group is executed with the
// context its source gives its observation (schema/live/observed-events.ts: the operation's, with the
// observation's lookups), never a changed one. Their calls are paid from the live share (context.ts,
// eventLookups) and bounded by the subscription's plan (demand/observation.ts):
//   - an observation with more events than its joins were admitted for ends the subscription with
//     OPERATION_TOO_EXPENSIVE before any of them is joined;
//   - joins the live share (or the upstream) refuses end it with RATE_LIMITED and retryAfter, the
//     observation's events unsent: the subscriber subscribes again (includeCurrent) when told.
import {
  createSourceEventStream,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { GatewayError } from '../../errors';
import { ArgumentRefusal } from './demand/plan';
import { planOf } from './demand/plans';
import { coerceVariables, VariableRefusal } from './demand/variables';

/** What the live streams offer (src/live/delivery/events/event-stream.ts): an observation's items ready together. */
interface GroupedSource extends AsyncIterator<unknown> {
  nextGroup(most: number): Promise<unknown[]>;
}

const grouped = (source: AsyncIterator<unknown>): GroupedSource =>
  'nextGroup' in source && typeof source.nextGroup === 'function'
    ? (source as GroupedSource)
    : Object.assign(source, {
        nextGroup: async () => {
          const item = await source.next();
          return item.done ? [] : [item.value];
        },
      });

/** The context each item is executed with: what the source says (an observation's), else the operation's. */
type ContextOf = (item: unknown) => unknown;

const contextsOf = (source: object, operation: unknown): ContextOf =>
  'contextOf' in source && typeof source.contextOf === 'function'
    ? (item) => (source.contextOf as ContextOf).call(source, item)
    : () => operation;

const observedAt = (item: unknown): string | undefined =>
  typeof item === 'object' && item !== null && 'observedAt' in item && typeof item.observedAt === 'string'
    ? item.observedAt
    : undefined;

const tooMany = (events: number): GatewayError =>
  new GatewayError(
    'OPERATION_TOO_EXPENSIVE',
    `This observation holds more than ${events} events, the most this subscription's joins were admitted for (MAX_UPSTREAM_CALLS_PER_OPERATION); select fewer joins, or none.`,
  );

/**
 * The refusal of one of the group's joins (the budget's live share, or the upstream's 429), if any:
 * an error below the event's root field (the stream's own last error is the root field's).
 */
function refusalIn(results: readonly ExecutionResult[]): GatewayError | undefined {
  for (const result of results)
    for (const error of result.errors ?? []) {
      const original = error.originalError;
      const joined = (error.path?.length ?? 0) > 1;
      if (joined && original instanceof GatewayError && original.code === 'RATE_LIMITED')
        return new GatewayError(
          'RATE_LIMITED',
          "This observation's joins found no room in the live share of this credential's budget (LIVE_POLL_BUDGET_PER_MIN); subscribe again after retryAfter seconds.",
          { retryAfter: original.details.retryAfter ?? 60 },
        );
    }
  return undefined;
}

/** One subscription's results, its source's items executed a group at a time. */
class ObservationResults implements AsyncIterableIterator<ExecutionResult> {
  private ready: ExecutionResult[] = [];
  private done = false;
  /** The observation being delivered, and how many of its events were taken so far. */
  private observation: string | undefined;
  private taken = 0;

  constructor(
    private readonly source: GroupedSource,
    private readonly args: ExecutionArgs,
    private readonly joins: { readonly together: number; readonly events: number },
    private readonly contextOf: ContextOf,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    for (;;) {
      const result = this.ready.shift();
      if (result !== undefined) return { done: false, value: result };
      if (this.done) return { done: true, value: undefined };
      await this.runGroup();
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.done = true;
    this.ready = [];
    await this.source.return?.();
    return { done: true, value: undefined };
  }

  private run(item: unknown, contextValue: unknown): Promise<ExecutionResult> {
    return Promise.resolve(execute({ ...this.args, rootValue: item, contextValue }));
  }

  private async runGroup(): Promise<void> {
    const group = await this.source.nextGroup(this.joins.together);
    if (group.length === 0 || this.done) {
      this.done = true;
      return;
    }
    const overflow = this.count(group);
    if (overflow) return this.end(overflow);
    // Together: every event's loads of one level reach the observation's loaders in one tick.
    const contextValue = this.contextOf(group[0]);
    const results = await Promise.all(group.map((item) => this.run(item, contextValue)));
    const refused = refusalIn(results);
    if (refused) return this.end(refused);
    this.ready.push(...results);
  }

  /** Counts the group into its observation; the error when that takes it past the admitted events. */
  private count(group: readonly unknown[]): GatewayError | undefined {
    const at = observedAt(group[0]);
    if (at === undefined) return undefined;
    if (at !== this.observation) {
      this.observation = at;
      this.taken = 0;
    }
    this.taken += group.length;
    return this.taken > this.joins.events ? tooMany(this.joins.events) : undefined;
  }

  /** The subscription's last result is `error` (raised as the field's, like a stream's own end). */
  private async end(error: GatewayError): Promise<void> {
    this.ready = [await this.run(error, this.args.contextValue)];
    this.done = true;
    await this.source.return?.();
  }
}

/** `limits`: what the subscription was planned within (demand-control.ts plans it the same way). */
export function useObservationJoins(limits: { readonly maxUpstreamCalls: number }): Plugin {
  const subscribe = async (args: ExecutionArgs) => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source;
    const schema = args.schema as GraphQLSchema;
    // Admitted already (demand-control.ts), so its variables coerce: planned as it was admitted.
    const variables = coerceVariables(schema, args.document, args.operationName, args.variableValues);
    const plan =
      variables instanceof VariableRefusal
        ? undefined
        : planOf({
            schema,
            document: args.document,
            operationName: args.operationName,
            variables,
            maxUpstreamCalls: limits.maxUpstreamCalls,
          });
    const joins = plan === undefined || plan instanceof ArgumentRefusal ? undefined : plan.stream;
    const iterator = source[Symbol.asyncIterator]();
    return new ObservationResults(
      grouped(iterator),
      args,
      joins ?? { together: 1, events: Infinity },
      contextsOf(source, args.contextValue),
    );
  };
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribe);
    },
  };
}
