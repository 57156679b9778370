// Plans remembered per document: an operation without variables plans the same every time, so its
// plan (or the argument refusal it earns) is kept as long as yoga's parse cache keeps the document.
import type { DocumentNode } from 'graphql';
import { getOperationAST } from 'graphql';
import { ArgumentRefusal, type Plan, type PlanRequest, planOperation } from './plan';

type Planned = Plan | ArgumentRefusal;

const remembered = new WeakMap<DocumentNode, Map<string, Planned>>();

function planned(request: PlanRequest): Planned {
  try {
    return planOperation(request);
  } catch (error) {
    if (error instanceof ArgumentRefusal) return error;
    throw error;
  }
}

/** The plan of the operation, or its argument refusal; from memory when it has no variables. */
export function planOf(request: PlanRequest): Planned {
  const { document, operationName } = request;
  const operation = getOperationAST(document, operationName);
  if (!operation || (operation.variableDefinitions?.length ?? 0) > 0) return planned(request);
  const byName = remembered.get(document) ?? new Map<string, Planned>();
  remembered.set(document, byName);
  const key = `${operationName ?? ''} ${request.maxUpstreamCalls ?? ''}`;
  const known = byName.get(key);
  if (known) return known;
  const plan = planned(request);
  byName.set(key, plan);
  return plan;
}
