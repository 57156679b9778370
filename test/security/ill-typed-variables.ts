// Variables graphql-js's coercion refuses, for every argument of every root field of the schema
// (queries, mutations, subscriptions), and so for every input type it uses: an array where an input
// object belongs, an object where a list belongs, a string for an Int, an unknown enum value, null in
// a non-null list or for a required value, an unknown input field. The operation around each is
// valid: only its variables are not.
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type OperationTypeNode,
} from 'graphql';

export interface IllTyped {
  readonly operation: OperationTypeNode;
  readonly query: string;
  readonly variables: Record<string, unknown>;
  /** What is wrong, for a failure message. */
  readonly what: string;
}

/** A value graphql-js accepts for `type`. */
function valid(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return valid(type.ofType);
  if (isListType(type)) return [valid(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]?.name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(fields.map((f) => [f.name, valid(f.type)]));
  }
  switch (type.name) {
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return true;
    case 'DateTime':
      return '2026-01-01T00:00:00Z';
    default:
      return 'x';
  }
}

/** Values graphql-js refuses for `type`, each with what is wrong with it. */
function invalid(type: GraphQLInputType, where: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (isNonNullType(type)) {
    out.push([`null for the required ${where}`, null]);
    for (const [what, value] of invalid(type.ofType, where)) if (value !== null) out.push([what, value]);
    return out;
  }
  if (isListType(type)) {
    out.push([`an object for the list ${where}`, { a: 1 }]);
    if (isNonNullType(type.ofType)) out.push([`null inside the non-null list ${where}`, [null]]);
    for (const [what, value] of invalid(type.ofType, `${where}[]`))
      if (value !== null) out.push([what, [value]]);
    return out;
  }
  if (isInputObjectType(type)) {
    const base = valid(type) as Record<string, unknown>;
    out.push([`an array for the input object ${where}`, []]);
    out.push([`an unknown input field in ${where}`, { ...base, notAField: 1 }]);
    for (const field of Object.values(type.getFields()))
      for (const [what, value] of invalid(field.type, `${where}.${field.name}`))
        out.push([what, { ...base, [field.name]: value }]);
    return out;
  }
  if (isEnumType(type)) return [[`an unknown value of the enum ${where}`, 'NOT_A_VALUE']];
  if (isScalarType(type)) {
    if (type.name === 'Int') return [[`a string for the Int ${where}`, '20']];
    if (type.name === 'Boolean') return [[`a string for the Boolean ${where}`, 'yes']];
    if (type.name === 'DateTime') return [[`a number for the DateTime ${where}`, 5]];
    return [[`an object for the ${type.name} ${where}`, { a: 1 }]];
  }
  return out;
}

const selection = (field: GraphQLField<unknown, unknown>) =>
  isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';

/** One operation per refused value of every argument of every root field. */
export function illTypedOperations(schema: GraphQLSchema): IllTyped[] {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  const out: IllTyped[] = [];
  for (const [operation, root] of roots) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const args: readonly GraphQLArgument[] = field.args;
      for (const arg of args) {
        const definitions = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
        const passed = args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${operation} Op(${definitions}) { ${field.name}(${passed})${selection(field)} }`;
        const others = Object.fromEntries(args.filter((a) => a !== arg).map((a) => [a.name, valid(a.type)]));
        for (const [what, value] of invalid(arg.type, `${field.name}(${arg.name})`))
          out.push({
            operation: operation as OperationTypeNode,
            query,
            variables: { ...others, [arg.name]: value },
            what,
          });
      }
    }
  }
  return out;
}
