// Plans remembered per document: an operation without variables plans the same every time, so its
// plan (or the argument refusal it earns) is kept as long as yoga's parse cache keeps the document.
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { getOperationAST } from 'graphql';
import { ArgumentRefusal, type Plan, planOperation } from './plan';

type Planned = Plan | ArgumentRefusal;

const remembered = new WeakMap<DocumentNode, Map<string, Planned>>();

function planned(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): Planned {
  try {
    return planOperation(schema, document, operationName, variables);
  } catch (error) {
    if (error instanceof ArgumentRefusal) return error;
    throw error;
  }
}

/** The plan of the operation, or its argument refusal; from memory when it has no variables. */
export function planOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): Planned {
  const operation = getOperationAST(document, operationName);
  if (!operation || (operation.variableDefinitions?.length ?? 0) > 0)
    return planned(schema, document, operationName, variables);
  const byName = remembered.get(document) ?? new Map<string, Planned>();
  remembered.set(document, byName);
  const key = operationName ?? '';
  const known = byName.get(key);
  if (known) return known;
  const plan = planned(schema, document, operationName, variables);
  byName.set(key, plan);
  return plan;
}
