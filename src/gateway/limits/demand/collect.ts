// The fields an operation asks of one object type, as execution collects them: fragments and inline
// fragments whose type condition applies, @skip/@include with the operation's variables, and fields
// of one response name merged (their selection sets are asked together).
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getDirectiveValues,
  isAbstractType,
  Kind,
  type SelectionSetNode,
} from 'graphql';

/** What collecting needs of the operation: its schema, fragments and coerced variables. */
export interface Operation {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Readonly<Record<string, unknown>>;
}

type Directed = Parameters<typeof getDirectiveValues>[1];

/** False when @skip(if: true) or @include(if: false) leaves the selection out. */
function included(op: Operation, node: Directed): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, op.variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, op.variables)?.if !== false;
}

function applies(op: Operation, condition: string | undefined, type: GraphQLObjectType): boolean {
  if (condition === undefined || condition === type.name) return true;
  const named = op.schema.getType(condition);
  return named !== undefined && isAbstractType(named) && op.schema.isSubType(named, type);
}

/**
 * What a lone selection set collects on each type, when no directive took part: the same for every
 * plan of its document (a node belongs to one document, as do the fragments it spreads).
 */
const collected = new WeakMap<SelectionSetNode, Map<string, Map<string, FieldNode[]>>>();

/** The fields each response name asks of `type`, from every selection set given. */
export function collectFields(
  op: Operation,
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
): Map<string, FieldNode[]> {
  const lone = sets.length === 1 ? sets[0] : undefined;
  const known = lone && collected.get(lone)?.get(type.name);
  if (known) return known;
  const fields = new Map<string, FieldNode[]>();
  const spread = new Set<string>();
  let directed = false;
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.directives?.length) directed = true;
      if (!included(op, selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const known = fields.get(key);
        if (known) known.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(op, selection.typeCondition?.name.value, type)) visit(selection.selectionSet);
      } else {
        const name = selection.name.value;
        const fragment = op.fragments.get(name);
        if (!fragment || spread.has(name)) continue;
        spread.add(name);
        if (applies(op, fragment.typeCondition.name.value, type)) visit(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) visit(set);
  if (lone && !directed) {
    const byType = collected.get(lone) ?? new Map<string, Map<string, FieldNode[]>>();
    collected.set(lone, byType);
    byType.set(type.name, fields);
  }
  return fields;
}

/** The document's fragments by name, as collecting needs them (Operation.fragments). */
export const fragmentsOf = (document: DocumentNode): Map<string, FragmentDefinitionNode> =>
  new Map(
    document.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [],
    ),
  );

/** The selection sets of merged field nodes. */
export const subSelections = (nodes: readonly FieldNode[]): SelectionSetNode[] =>
  nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
