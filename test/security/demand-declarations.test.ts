// A field that reaches the upstream must say how (schema/upstream-calls.ts), or the planner cannot
// predict it: every root field declares its calls, every field holding references
// declares what its references join, and Ref.node is the one join. The property test
// (demand-property.test.ts) then checks the declarations against what the code really calls.
import { getNamedType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema';
import { declaredCalls, type UpstreamCalls } from '../../src/schema/upstream-calls';

const declared = (type: string, field: string): UpstreamCalls | undefined => {
  const named = schema.getType(type);
  if (!isObjectType(named)) throw new Error(`no object type ${type}`);
  return declaredCalls(named.getFields()[field]);
};

describe('upstream calls declared beside the fields', () => {
  it('every root field declares its calls', () => {
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      for (const field of Object.values(root?.getFields() ?? {}))
        expect(declared(root?.name ?? '', field.name), `${root?.name}.${field.name}`).toBeDefined();
    }
  });

  it('every field holding references declares what they join; only Ref.node joins', () => {
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const kind = declared(type.name, field.name)?.kind;
        if (getNamedType(field.type).name === 'Ref')
          expect(kind, `${type.name}.${field.name}`).toBe('refers');
        if (kind === 'join') expect(`${type.name}.${field.name}`).toBe('Ref.node');
      }
    }
  });

  it('a join of one reference kind the schema does not serve resolves with no call', () => {
    expect(declared('Ref', 'node')).toMatchObject({ kind: 'join' });
    expect(declared('Endpoint', 'principal')).toEqual({ kind: 'refers', to: [] });
  });
});
