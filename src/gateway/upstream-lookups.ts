// How many objects an operation may look up upstream one at a time: each field below counts once
// for every item of the lists around it, so a join inside `tunnels(first: 20)` counts 20. Static,
// like the rest of the cost: a list's size is its `first` (20 when absent, 100 when a variable) or
// its `ids` (100 when a variable); other lists count once, as graphql-armor counts them.
import {
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { DEFAULT_FIRST } from '../schema/forward-connection';
import { MAX_PAGE_SIZE } from '../upstream';

/**
 * Fields whose answer is read upstream per object: references joined, endpoints and the account
 * graph by id or page, and the reverse joins (a filtered endpoints page per agent or reservation).
 */
export const LOOKUP_FIELDS: ReadonlySet<string> = new Set([
  'Ref.node',
  'Query.endpoint',
  'Query.endpoints',
  'Query.tunnelSession',
  'Query.tunnelSessions',
  'Query.reservedDomain',
  'Query.reservedDomains',
  'Query.reservedAddress',
  'Query.reservedAddresses',
  'TunnelSession.endpoints',
  'ReservedDomain.endpoints',
  'ReservedAddress.endpoints',
]);

/** The most items a field's answer can hold for the fields below it. */
function itemsOf(field: FieldNode, definition: GraphQLField<unknown, unknown>): number {
  for (const name of ['first', 'ids']) {
    if (!definition.args.some((a) => a.name === name)) continue;
    const value = field.arguments?.find((a) => a.name.value === name)?.value;
    if (value === undefined) return name === 'first' ? DEFAULT_FIRST : 1;
    if (value.kind === Kind.INT) return Number.parseInt(value.value, 10);
    if (value.kind === Kind.LIST) return value.values.length;
    // A variable: its value is not known while validating (validation is cached per document).
    return MAX_PAGE_SIZE;
  }
  return 1;
}

/** The upstream lookups `operation` may make (LOOKUP_FIELDS, multiplied by the lists around them). */
export function upstreamLookups(context: ValidationContext, operation: OperationDefinitionNode): number {
  const schema = context.getSchema();
  // A fragment's count does not depend on where it is spread: counted once, however often it is.
  const fragments = new Map<string, number>();

  function countIn(set: SelectionSetNode, type: GraphQLCompositeType, spreading: Set<string>): number {
    let count = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        // __typename, introspection and unknown fields (which another rule refuses) look nothing up.
        const definition =
          isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
        if (!definition) continue;
        if (LOOKUP_FIELDS.has(`${type.name}.${definition.name}`)) count += 1;
        const inner = getNamedType(definition.type);
        if (selection.selectionSet && isCompositeType(inner))
          count += itemsOf(selection, definition) * countIn(selection.selectionSet, inner, spreading);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const inner = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (isCompositeType(inner)) count += countIn(selection.selectionSet, inner, spreading);
      } else {
        count += fragmentCount(selection.name.value, spreading);
      }
    }
    return count;
  }

  function fragmentCount(name: string, spreading: Set<string>): number {
    const known = fragments.get(name);
    if (known !== undefined) return known;
    const fragment = context.getFragment(name);
    // A cycle counts nothing here: NoFragmentCyclesRule refuses the document.
    if (!fragment || spreading.has(name)) return 0;
    const type = schema.getType(fragment.typeCondition.name.value);
    const count = isCompositeType(type)
      ? countIn(fragment.selectionSet, type, new Set([...spreading, name]))
      : 0;
    fragments.set(name, count);
    return count;
  }

  const root = schema.getRootType(operation.operation);
  return root ? countIn(operation.selectionSet, root, new Set()) : 0;
}
