import { readFileSync } from 'node:fs';
import {
  buildSchema,
  findBreakingChanges,
  graphql,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  printSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the schema', () => {
  it('schema/schema.graphql is the schema printed from the code', () => {
    expect(read('../../schema/schema.graphql')).toBe(`${printSchema(schema)}\n`);
  });

  it('keeps every name, type, argument and default of the public contract (a copy lives in test/contract)', () => {
    const contract = buildSchema(read('../contract/graphql-contract.graphql'));
    expect(findBreakingChanges(contract, schema)).toEqual([]);
    // Breaking-change detection allows a nullable field to become non-null; the contract does not.
    for (const type of Object.values(contract.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      const ours = schema.getType(type.name);
      if (!ours || !(isObjectType(ours) || isInterfaceType(ours))) throw new Error(`missing ${type.name}`);
      for (const field of Object.values(type.getFields())) {
        expect(`${type.name}.${field.name}: ${String(ours.getFields()[field.name]?.type)}`).toBe(
          `${type.name}.${field.name}: ${String(field.type)}`,
        );
      }
    }
  });

  it('describes every type, field, argument, input field and enum value', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Boolean', 'Int', 'Float', 'ID'].includes(type.name))
        continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) {
            if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if (isEnumType(type))
        for (const v of type.getValues()) if (!v.description) missing.push(`${type.name}.${v.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('introspection lists only the built-in scalars the schema uses (no Float)', async () => {
    const result = await graphql({ schema, source: '{ __schema { types { name kind } } }' });
    const introspected = result.data as { __schema: { types: { name: string; kind: string }[] } };
    expect(introspected.__schema.types.filter((t) => t.kind === 'SCALAR').map((t) => t.name)).toEqual([
      'Boolean',
      'DateTime',
      'ID',
      'Int',
      'String',
    ]);
  });
});
