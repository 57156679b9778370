// For an operation refused as too expensive: the largest `first` one of its pages could take for the
// operation to fit, found by planning it again with that page's `first` lowered. A plan never grows
// as a page shrinks (fewer items, fewer references), so a binary search over 1..100 finds it; the
// outermost pages are tried first, a few of them, so a refusal costs a bounded number of plans.
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  getNamedType,
  getOperationAST,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { declaredCalls } from '../../../schema/upstream-calls';
import { MAX_PAGE_SIZE } from '../../../upstream';
import { fragmentsOf } from './collect';
import { type Plan, type PlanRequest, planOperation } from './plan';

/** The page to lower and the `first` at which the whole operation fits. */
export interface FittingFirst {
  /** Response keys from the root down to the page, where the operation first reaches it. */
  readonly path: readonly string[];
  readonly first: number;
}

/** The limits a plan must stay within (MAX_UPSTREAM_CALLS_PER_OPERATION, MAX_RESPONSE_OBJECTS). */
export interface PlanLimits {
  readonly calls: number;
  readonly objects: number;
}

/** Pages tried, outermost first: each costs at most eight plans. */
const PAGES_TRIED = 4;

interface PageNode {
  readonly node: FieldNode;
  readonly path: readonly string[];
}

const isPage = (field: GraphQLField<unknown, unknown> | undefined): boolean =>
  declaredCalls(field)?.kind === 'page';

/** The operation's page fields, breadth first (each field node once, at the first place reached). */
function pagesOf({ schema, document, operationName }: PlanRequest): PageNode[] {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return [];
  const fragments = fragmentsOf(document);
  const queue: { set: SelectionSetNode; type: GraphQLCompositeType; path: readonly string[] }[] = [];
  const walked = new Map<SelectionSetNode, Set<string>>();
  const pages: PageNode[] = [];
  const found = new Set<FieldNode>();
  // A selection set walked once per type: fragments reused across the document cost nothing more.
  const walk = (set: SelectionSetNode, type: GraphQLCompositeType, path: readonly string[]): void => {
    const types = walked.get(set) ?? new Set<string>();
    if (types.has(type.name)) return;
    walked.set(set, types.add(type.name));
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const fields = isObjectType(type) || isInterfaceType(type) ? type.getFields() : {};
        const field = fields[selection.name.value];
        const key = [...path, selection.alias?.value ?? selection.name.value];
        if (isPage(field) && !found.has(selection)) {
          found.add(selection);
          pages.push({ node: selection, path: key });
        }
        const named = field && getNamedType(field.type);
        if (selection.selectionSet && named && isCompositeType(named))
          queue.push({ set: selection.selectionSet, type: named, path: key });
        continue;
      }
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      if (!fragment) continue;
      const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
      if (condition && isCompositeType(condition)) walk(fragment.selectionSet, condition, path);
    }
  };
  queue.push({ set: operation.selectionSet, type: root, path: [] });
  for (let i = 0; i < queue.length && pages.length < PAGES_TRIED; i += 1) {
    const next = queue[i];
    if (next) walk(next.set, next.type, next.path);
  }
  return pages.slice(0, PAGES_TRIED);
}

/**
 * The document with `page` asking `first`, every selection set a new node: the planner remembers
 * what a selection set collects, for a document whose fragments never change, as here they do.
 */
const withFirst = (document: DocumentNode, page: FieldNode, first: number): DocumentNode =>
  visit(document, {
    SelectionSet: (set) => ({ ...set }),
    Field: (field) =>
      field === page
        ? {
            ...field,
            arguments: [
              ...(field.arguments ?? []).filter((arg) => arg.name.value !== 'first'),
              {
                kind: Kind.ARGUMENT,
                name: { kind: Kind.NAME, value: 'first' },
                value: { kind: Kind.INT, value: String(first) },
              },
            ],
          }
        : undefined,
  });

const fitsIn = (plan: Plan, limits: PlanLimits) =>
  plan.calls <= limits.calls && plan.objects <= limits.objects;

/** The largest `first` of `page` at which the operation fits, if any. */
function largestFirst(request: PlanRequest, page: FieldNode, limits: PlanLimits): number | undefined {
  const fits = (first: number): boolean => {
    try {
      return fitsIn(
        planOperation({ ...request, document: withFirst(request.document, page, first) }),
        limits,
      );
    } catch {
      return false;
    }
  };
  if (!fits(1)) return undefined;
  let low = 1;
  let high = MAX_PAGE_SIZE;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Found per document, for operations without variables (they plan the same every time). */
const remembered = new WeakMap<DocumentNode, Map<string, FittingFirst | null>>();

function search(request: PlanRequest, limits: PlanLimits): FittingFirst | null {
  for (const { node, path } of pagesOf(request)) {
    const first = largestFirst(request, node, limits);
    if (first !== undefined) return { path, first };
  }
  return null;
}

/** The page whose `first`, lowered to the value given, makes the operation fit within `limits`. */
export function fittingFirst(request: PlanRequest, limits: PlanLimits): FittingFirst | undefined {
  const operation = getOperationAST(request.document, request.operationName);
  if (!operation) return undefined;
  if ((operation.variableDefinitions?.length ?? 0) > 0) return search(request, limits) ?? undefined;
  const byKey = remembered.get(request.document) ?? new Map<string, FittingFirst | null>();
  remembered.set(request.document, byKey);
  const key = `${request.operationName ?? ''} ${limits.calls} ${limits.objects}`;
  const known = byKey.get(key);
  if (known !== undefined) return known ?? undefined;
  const found = search(request, limits);
  byKey.set(key, found);
  return found ?? undefined;
}
