// Fields whose resolver only reads the parent's property of the same name, never a promise, are
// marked `inlineRead` where they are defined (relay's connection and edge fields in builder.ts,
// node ids). Their resolver is dropped from the built schema, so graphql-jit reads the property in
// place instead of calling a function with a resolve info, a response path and three closures: a page
// of 20 tunnels made 42 such calls. graphql-js (mutations, @defer) reads them with its default
// resolver, which gives the same value.
import { type GraphQLSchema, isObjectType } from 'graphql';

/** Spread into a field's options: its resolver reads `parent[fieldName]`, which is never a promise. */
export const inlineRead = { extensions: { inlineRead: true } } as const;

/** Drops the resolver of every marked field; a marked field with arguments is a mistake. */
export function withInlineReads(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.extensions?.inlineRead !== true) continue;
      if (field.args.length > 0)
        throw new Error(`${type.name}.${field.name} takes arguments: not an inline read`);
      field.resolve = undefined;
    }
  }
  return schema;
}
