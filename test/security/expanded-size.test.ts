// The expanded size of a document (src/gateway/limits/expanded-size.ts): what execution or a compiler
// would collect with every fragment spread through every possible type, every @skip/@include branch
// and every alias counted, measured without expanding anything.
import { getIntrospectionQuery, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_OPERATIONS } from '../../src/gateway/graphiql';
import { expandedSize } from '../../src/gateway/limits/expanded-size';
import { schema } from '../../src/schema';

const size = (query: string) => expandedSize(schema, parse(query));

describe('expanded size', () => {
  it('counts fields, aliases and both branches of @skip/@include', () => {
    expect(size('{ tunnels { nodes { id } } }')).toBe(3);
    expect(size('{ a: tunnels { nodes { id } } b: tunnels { nodes { id @skip(if: true) } } }')).toBe(6);
  });

  it('spreads a fragment on Node through every type that implements it, once per type', () => {
    // node: 1; on each of the thirteen node types: id.
    expect(size('{ node(id: "tn_1") { id } }')).toBe(14);
    // Only Tunnel's inline fragment applies on a Tunnel; on each of the thirteen: id, and region on one.
    expect(size('{ node(id: "tn_1") { ...N } } fragment N on Node { id ... on Tunnel { region } }')).toBe(15);
    // A fragment on a concrete type counts where its type is possible only.
    expect(size('{ tunnels { nodes { ...E } } } fragment E on Endpoint { url }')).toBe(2);
  });

  it('grows with the expansion, not the document: each hop through Node multiplies', () => {
    const hops = (n: number) => {
      const levels = Array.from({ length: n }, (_, i) =>
        i + 1 < n
          ? `fragment L${i + 1} on Node { ... on Endpoint { a: tunnel { node { ...L${i + 2} } } b: domain { node { ...L${i + 2} } } } }`
          : `fragment L${i + 1} on Node { id }`,
      );
      return `{ node(id: "ep_1") { ...L1 } }\n${levels.join('\n')}`;
    };
    const sizes = [2, 3, 4, 5, 6].map((n) => size(hops(n)));
    for (let i = 1; i < sizes.length; i += 1) expect(sizes[i]).toBeGreaterThan(2 * (sizes[i - 1] as number));
    // Forty hops measure without expanding (2^40 paths), and saturate rather than overflow.
    expect(size(hops(40))).toBeGreaterThan(1_000_000_000_000);
  });

  it('a fragment cycle (refused by validation later) counts once round, and ends', () => {
    expect(
      size('{ node(id: "tn_1") { ...A } } fragment A on Node { id ...B } fragment B on Node { id ...A }'),
    ).toBe(27);
  });

  it('introspection is 230 (GraphiQL asks all of it), the example tabs under 60', () => {
    const full = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    expect(size(full)).toBe(230);
    // The largest: ByIds, node and nodes each through the thirteen node types (55).
    for (const example of EXAMPLE_OPERATIONS) expect(size(example.document), example.name).toBeLessThan(60);
  });
});
