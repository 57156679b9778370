// Live queries (@live on a query operation, detected by @n1ru4l/graphql-live-query): the operation,
// once admitted, runs as a stream. Its reads are judged first (live-reads.ts): a field no
// observation covers refuses it, naming the field, before any upstream call. Then the live side
// (live/delivery/queries/) hands its first result (from the account's observation when it has one,
// else read from the upstream as a plain query is) and a JSON Patch each time its evaluation over a
// newer observation differs; each evaluation executes the same document with lookups that read the
// observation (context.ts, observationContext): no upstream call. @live beside @defer or @stream is
// refused by the package's validation rule; on a mutation or a subscription, by the directive's place.
import {
  getLiveDirectiveArgumentValues,
  getLiveDirectiveNode,
  isLiveQueryOperationDefinitionNode,
  NoLiveMixedWithDeferStreamRule,
} from '@n1ru4l/graphql-live-query';
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  getOperationAST,
  type OperationDefinitionNode,
  print,
} from 'graphql';
import { getSSEProcessor, type Plugin } from 'graphql-yoga';
import { type Context, observationContext } from '../../context';
import { GatewayError } from '../../errors';
import type { LiveQueryItem } from '../../live';
import { toGraphQLError } from '../execution';
import { fragmentsOf, type Operation } from '../limits/demand/collect';
import { liveReads } from './live-reads';

type Execute = (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult> | unknown;

/** Each document's text, printed once: what tells two live queries' documents apart. */
const texts = new WeakMap<DocumentNode, string>();
function textOf(document: DocumentNode): string {
  let text = texts.get(document);
  if (text === undefined) {
    text = print(document);
    texts.set(document, text);
  }
  return text;
}

const refusal = (message: string): ExecutionResult => ({
  errors: [new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } })],
});

/**
 * The items of the live side as payloads, the error that ends a query as a GraphQL error. Not an
 * async generator: a client that leaves while the query waits for a change must end it at once
 * (return() reaches the live side's stream), not when the next change comes.
 */
class Payloads implements AsyncIterableIterator<ExecutionResult> {
  constructor(private readonly items: AsyncIterator<LiveQueryItem>) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<ExecutionResult> {
    return this;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    const next = await this.items.next();
    if (next.done) return { done: true, value: undefined };
    const item = next.value;
    return { done: false, value: item instanceof GatewayError ? { errors: [toGraphQLError(item)] } : item };
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    await this.items.return?.();
    return { done: true, value: undefined };
  }
}

async function live(
  args: ExecutionArgs,
  execute: Execute,
  operation: OperationDefinitionNode,
): Promise<ExecutionResult | AsyncIterable<ExecutionResult>> {
  const variables = (args.variableValues ?? {}) as Record<string, unknown>;
  const op: Operation = { schema: args.schema, fragments: fragmentsOf(args.document), variables };
  const root = args.schema.getQueryType();
  if (!root) throw new Error('the schema has no query type');
  const reads = liveReads(op, root, operation.selectionSet);
  if ('refused' in reads) {
    const { path, field, why } = reads.refused;
    return refusal(
      `"${path}" (${field}) cannot be live: ${why}. Live queries read tunnels, endpoints, tunnel sessions, reserved domains and reserved addresses from the account's shared observation; run this query without @live.`,
    );
  }
  const directive = getLiveDirectiveNode(operation);
  const throttle = directive ? getLiveDirectiveArgumentValues(directive, variables).throttleValue : null;
  const ctx = args.contextValue as Context;
  const run = (contextValue: Context) => execute({ ...args, contextValue }) as Promise<ExecutionResult>;
  // Admitted on no call (its account observed: observed-start.ts), it may make none: no upstream read.
  const readsFirst = ctx.upstreamScope.ledger?.predicted !== 0;
  try {
    return new Payloads(
      ctx
        .liveQuery({
          selection: JSON.stringify([textOf(args.document), args.operationName, variables, throttle]),
          kinds: reads.kinds,
          throttleMs: Math.max(0, throttle ?? 0),
          evaluate: async (observation) => run(observationContext(ctx, observation)),
          ...(readsFirst ? { first: async () => run(ctx) } : {}),
        })
        [Symbol.asyncIterator](),
    );
  } catch (error) {
    if (error instanceof GatewayError) return { errors: [toGraphQLError(error)] };
    throw error;
  }
}

/** Whether `accept` takes SSE (absent, or any of its media ranges covers text/event-stream). */
const takesSse = (accept: string | null): boolean =>
  accept === null || /(?:^|,)\s*(?:\*\/\*|text\/\*|text\/event-stream)\s*(?:;|,|$)/i.test(accept);

export function useLiveQueries(): Plugin<Context> {
  /** Requests that carry a live query: their stream goes out as SSE, as a subscription's does. */
  const liveRequests = new WeakSet<Request>();
  const sse = getSSEProcessor();
  return {
    onResultProcess({ request, result, setResultProcessor }) {
      // yoga would pick multipart/mixed (@defer's) for a stream when the client accepts anything.
      if (
        liveRequests.has(request) &&
        typeof result === 'object' &&
        result !== null &&
        Symbol.asyncIterator in result
      )
        if (takesSse(request.headers.get('accept'))) setResultProcessor(sse, 'text/event-stream');
    },
    onValidate({ addValidationRule }) {
      addValidationRule(NoLiveMixedWithDeferStreamRule);
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'query') return;
      if (!isLiveQueryOperationDefinitionNode(operation, args.variableValues ?? undefined)) return;
      const { request } = args.contextValue as Context & { request?: Request };
      if (request) liveRequests.add(request);
      setExecuteFn((liveArgs) => live(liveArgs, executeFn, operation) as never);
    },
  };
}
