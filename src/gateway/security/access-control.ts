// Who may run what: an operation that reaches the upstream needs a credential, a write the write scope.
import { type DefinitionNode, Kind, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../context';
import { GatewayError, missingCredential } from '../../errors';
import { toGraphQLError } from '../execution/graphql-errors';

/** True when every root field of the operation is introspection, which needs no credential. */
function onlyIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.every(
    (s) =>
      s.kind === Kind.FIELD &&
      (s.name.value === '__schema' || s.name.value === '__type' || s.name.value === '__typename'),
  );
}

/** Why an operation may not run: no credential (unless only introspection), or a write without the write scope. */
function refusalOf(args: {
  document: { definitions: readonly DefinitionNode[] };
  operationName?: string | null;
  contextValue: Context;
}): GatewayError | undefined {
  const operation = args.document.definitions.find(
    (d: DefinitionNode): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION &&
      (args.operationName == null || d.name?.value === args.operationName),
  );
  if (!operation) return undefined;
  const ctx = args.contextValue;
  if (!ctx.authenticated && !onlyIntrospection(operation)) return missingCredential();
  if (operation.operation === 'mutation' && !ctx.scopes.includes('write')) {
    return new GatewayError('FORBIDDEN', 'This token may read but not write.', { httpStatus: 403 });
  }
  return undefined;
}

/** Refuses operations that reach the upstream without a credential, and writes without the write scope. */
export const useAccessControl = (): Plugin<Context> => ({
  onExecute({ args, setResultAndStopExecution }) {
    const refusal = refusalOf(args);
    if (refusal) setResultAndStopExecution({ errors: [toGraphQLError(refusal)] });
  },
  // Subscriptions (SSE and graphql-ws) take this path instead of onExecute.
  onSubscribe({ args, setResultAndStopExecution }) {
    const refusal = refusalOf(args);
    if (refusal) setResultAndStopExecution({ errors: [toGraphQLError(refusal)] });
  },
});
