// The expanded size of a document: the fields execution (or a compiler) would collect if every
// fragment were spread through every possible type of each interface or union, every @skip/@include
// branch taken and every alias kept. Measured before validation, planning and compilation, and in
// time linear in the document: each selection set is measured once per object type it can meet
// (memoised), never expanded. An unknown field or type counts what its selections hold, unexpanded
// (validation refuses it later).
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
} from 'graphql';

/** Past this the count stops growing: every bound compares below it. */
const SATURATED = Number.MAX_SAFE_INTEGER;

const sum = (a: number, b: number): number => Math.min(SATURATED, a + b);

/** Fields written in a selection set, its nested sets included: what an unknown field asks at least. */
function written(set: SelectionSetNode | undefined): number {
  let n = 0;
  for (const selection of set?.selections ?? []) {
    n = sum(n, selection.kind === Kind.FIELD ? 1 : 0);
    if (selection.kind !== Kind.FRAGMENT_SPREAD) n = sum(n, written(selection.selectionSet));
  }
  return n;
}

class Measure {
  private readonly memo = new Map<SelectionSetNode, Map<string, number>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  ) {}

  /** The fields `set` expands to on objects of `type`. */
  of(set: SelectionSetNode, type: GraphQLObjectType): number {
    const byType = this.memo.get(set) ?? new Map<string, number>();
    this.memo.set(set, byType);
    const known = byType.get(type.name);
    if (known !== undefined) return known;
    // A fragment cycle (refused by validation) counts nothing more on its way round.
    byType.set(type.name, 0);
    let n = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD)
        n = sum(n, 1 + this.field(type, selection.name.value, selection.selectionSet));
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (this.applies(selection.typeCondition?.name.value, type))
          n = sum(n, this.of(selection.selectionSet, type));
      } else {
        const fragment = this.fragments.get(selection.name.value);
        if (fragment && this.applies(fragment.typeCondition.name.value, type))
          n = sum(n, this.of(fragment.selectionSet, type));
      }
    }
    byType.set(type.name, n);
    return n;
  }

  /** A field's selections, on every object type its value can be. */
  private field(parent: GraphQLObjectType, name: string, set: SelectionSetNode | undefined): number {
    if (!set) return 0;
    const field = this.fieldOf(parent, name);
    if (!field) return written(set);
    const type = getNamedType(field.type);
    if (isObjectType(type)) return this.of(set, type);
    if (!isAbstractType(type)) return written(set);
    return this.schema.getPossibleTypes(type).reduce((n, possible) => sum(n, this.of(set, possible)), 0);
  }

  /** A field of `parent`, introspection's __schema and __type included (at the query root). */
  private fieldOf(parent: GraphQLObjectType, name: string): GraphQLField<unknown, unknown> | undefined {
    if (parent === this.schema.getQueryType()) {
      if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
      if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
    }
    return parent.getFields()[name];
  }

  /** Whether a type condition holds on `type`; an unknown one is taken as holding. */
  private applies(condition: string | undefined, type: GraphQLObjectType): boolean {
    if (condition === undefined || condition === type.name) return true;
    const named = this.schema.getType(condition);
    if (named === undefined) return true;
    return isAbstractType(named) && this.schema.isSubType(named, type);
  }
}

const measured = new WeakMap<DocumentNode, WeakMap<GraphQLSchema, number>>();

/** The largest expanded size of the document's operations (each measured from its root type). */
export function expandedSize(schema: GraphQLSchema, document: DocumentNode): number {
  const bySchema = measured.get(document) ?? new WeakMap<GraphQLSchema, number>();
  measured.set(document, bySchema);
  const known = bySchema.get(schema);
  if (known !== undefined) return known;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const measure = new Measure(schema, fragments);
  let most = 0;
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(d.operation);
    most = Math.max(most, root ? measure.of(d.selectionSet, root) : written(d.selectionSet));
  }
  bySchema.set(schema, most);
  return most;
}
