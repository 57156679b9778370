// Which operations run compiled (graphql-jit) and how many are kept: only queries without @defer or
// @stream that expand to at most COMPILE_MAX_FIELDS fields, from their second run, within
// KEPT_FIELDS expanded fields in all. Tested on the rule itself, with a compile that counts.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { CompiledOperations } from '../../src/gateway/execution/compiled-operations';
import { expandedSize } from '../../src/gateway/limits/expanded-size';
import { schema } from '../../src/schema';

function counting(result: (name?: string) => object | undefined = () => ({})) {
  const calls: (string | undefined)[] = [];
  const operations = new CompiledOperations((_schema, _document, name) => {
    calls.push(name);
    return result(name);
  });
  return { operations, calls };
}

const { COMPILE_MAX_FIELDS, KEPT_FIELDS } = CompiledOperations;
const SMALL = parse('query Page { tunnels(first: 20) { nodes { id proto region } } }');

/** A query of `n` aliased fields: n + 1 expanded fields. */
const wide = (n: number) =>
  parse(`{ ${Array.from({ length: n }, (_, i) => `f${i}: tunnels(first: 1) { nodes { id } }`).join(' ')} }`);

describe('compiled operations', () => {
  it('a small query compiles on its second run, once, and runs compiled after', () => {
    const { operations, calls } = counting();
    expect(operations.for(schema, SMALL, 'Page')).toBeUndefined();
    const compiled = operations.for(schema, SMALL, 'Page');
    expect(compiled).toBeDefined();
    expect(operations.for(schema, SMALL, 'Page')).toBe(compiled);
    expect(calls).toEqual(['Page']);
  });

  it(`a query expanding to more than ${COMPILE_MAX_FIELDS} fields never compiles`, () => {
    const { operations, calls } = counting();
    const large = wide(90);
    expect(expandedSize(schema, large)).toBeGreaterThan(COMPILE_MAX_FIELDS);
    const under = wide(50);
    expect(expandedSize(schema, under)).toBeLessThanOrEqual(COMPILE_MAX_FIELDS);
    for (let i = 0; i < 5; i += 1) expect(operations.for(schema, large, undefined)).toBeUndefined();
    operations.for(schema, under, undefined);
    expect(operations.for(schema, under, undefined)).toBeDefined();
    expect(calls).toHaveLength(1);
  });

  it('mutations and @defer or @stream never compile', () => {
    const { operations, calls } = counting();
    const documents = [
      parse('mutation { deleteEndpoint(input: { id: "ep_1" }) { __typename } }'),
      parse('{ tunnels(first: 1) { nodes { id ... @defer { region } } } }'),
      parse('query { tunnels(first: 1) { ...T } } fragment T on TunnelConnection { nodes @stream { id } }'),
    ];
    for (const document of documents)
      for (let i = 0; i < 3; i += 1) operations.for(schema, document, undefined);
    expect(calls).toEqual([]);
  });

  it('what graphql-jit cannot compile runs interpreted, and is not tried again', () => {
    const { operations, calls } = counting(() => undefined);
    for (let i = 0; i < 4; i += 1) expect(operations.for(schema, SMALL, 'Page')).toBeUndefined();
    expect(calls).toEqual(['Page']);
  });

  it(`distinct documents keep at most ${KEPT_FIELDS} expanded fields compiled, the oldest out`, () => {
    const { operations, calls } = counting();
    const documents = Array.from({ length: 3_000 }, (_, i) =>
      parse(`query Q${i} { tunnels(first: ${1 + (i % 100)}) { nodes { id } } }`),
    );
    for (const document of documents) {
      operations.for(schema, document, undefined);
      operations.for(schema, document, undefined);
    }
    expect(calls).toHaveLength(3_000);
    expect(operations.keptFields()).toBeLessThanOrEqual(KEPT_FIELDS);
    expect(operations.keptFields()).toBeGreaterThan(KEPT_FIELDS / 2);
    // The first one was dropped: it runs interpreted again until its second run.
    const first = documents[0] as (typeof documents)[number];
    expect(operations.for(schema, first, undefined)).toBeUndefined();
    expect(operations.for(schema, first, undefined)).toBeDefined();
  });
});
