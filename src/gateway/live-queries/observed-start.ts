// Whether a live query starts from its account's observation: every kind it reads is observed
// already, so its first result is an evaluation over that observation, at no upstream call. Demand
// control (limits/demand-control.ts) then admits it on 0 calls, and its first result never reads
// the upstream: it waits for that evaluation (live/delivery/queries/query-stream.ts).
import { isLiveQueryOperationDefinitionNode } from '@n1ru4l/graphql-live-query';
import { type ExecutionArgs, getOperationAST } from 'graphql';
import type { Context } from '../../context';
import { fragmentsOf } from '../limits/demand/collect';
import { liveReads } from './live-reads';

/** False at once for any other operation (the judgement stays in its tick); else the store's answer. */
export function startsObserved(args: ExecutionArgs): false | Promise<boolean> {
  const ctx = args.contextValue as Context;
  const operation = getOperationAST(args.document, args.operationName);
  const variables = (args.variableValues ?? {}) as Record<string, unknown>;
  const root = args.schema.getQueryType();
  if (!ctx.authenticated || !root || operation?.operation !== 'query') return false;
  if (!isLiveQueryOperationDefinitionNode(operation, variables)) return false;
  const op = { schema: args.schema, fragments: fragmentsOf(args.document), variables };
  const reads = liveReads(op, root, operation.selectionSet);
  return !('refused' in reads) && ctx.liveObserved(reads.kinds);
}
