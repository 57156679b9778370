// Fields that only read their parent's property have no resolver in the built schema, so compiled
// execution reads them in place (src/schema/inline-reads.ts); a mark on a field with arguments is refused.
import { GraphQLObjectType, GraphQLSchema, GraphQLString, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema';
import { inlineRead, withInlineReads } from '../../src/schema/inline-reads';

/** Type.field of every object field that still has a resolver, among those named. */
function withResolvers(names: readonly string[]): string[] {
  return names.filter((name) => {
    const [typeName = '', fieldName = ''] = name.split('.');
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
    const field = type.getFields()[fieldName];
    if (!field) throw new Error(`${name} does not exist`);
    return field.resolve !== undefined;
  });
}

describe('inline reads', () => {
  it('node ids, connection edges and page info, edge nodes and the plain tunnel fields have no resolver', () => {
    const connections = ['TunnelConnection', 'EndpointConnection', 'ReservedDomainConnection'];
    const edges = ['TunnelEdge', 'EndpointEdge', 'ReservedDomainEdge'];
    expect(
      withResolvers([
        'Tunnel.id',
        'Endpoint.id',
        'ReservedDomain.id',
        'TunnelSession.id',
        'Tunnel.proto',
        'Tunnel.labels',
        ...connections.flatMap((c) => [`${c}.edges`, `${c}.pageInfo`]),
        ...edges.map((e) => `${e}.node`),
      ]),
    ).toEqual([]);
    // A getter that may return a promise keeps a resolver, which compiled execution awaits.
    expect(withResolvers(['PageInfo.hasNextPage', 'TunnelConnection.nodes'])).toEqual([
      'PageInfo.hasNextPage',
      'TunnelConnection.nodes',
    ]);
  });

  it('refuses a marked field that takes arguments', () => {
    const query = new GraphQLObjectType({
      name: 'Query',
      fields: {
        greeting: {
          type: GraphQLString,
          args: { name: { type: GraphQLString } },
          resolve: () => 'hi',
          extensions: inlineRead.extensions,
        },
      },
    });
    expect(() => withInlineReads(new GraphQLSchema({ query }))).toThrow(
      'Query.greeting takes arguments: not an inline read',
    );
  });
});
