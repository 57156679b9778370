// A mutation that makes one write upstream, declared once: its `input` argument, its upstream call
// for the demand planner, and its result union named after it (`<Name>Result`: the answer, or one
// of the expected failures; with a payload, the answer is `<Name>Payload` holding it in one field).
import type { InputObjectRef, ObjectRef } from '@pothos/core';
import type { Context } from '../context';
import type { InvalidInputError, NotFoundError } from '../errors';
import { builder, type SchemaTypes } from './builder';
import { upstreamCalls } from './upstream-calls';

interface WriteMutation<Input, Answer> {
  readonly type: ObjectRef<SchemaTypes, Answer>;
  readonly description: string;
  readonly input: readonly [type: InputObjectRef<SchemaTypes, Input>, description: string];
  /** The expected failures, and the description of the result union. */
  readonly errors: readonly [
    types: readonly (typeof NotFoundError | typeof InvalidInputError)[],
    union: string,
  ];
  /** The payload's description and its one field (absent: the union holds the answer itself). */
  readonly payload?: readonly [description: string, field: string, fieldDescription: string];
  resolve(input: Input, ctx: Context): Promise<Answer>;
}

export function writeMutation<Input, Answer>(name: string, spec: WriteMutation<Input, Answer>): void {
  const typeName = name[0]?.toUpperCase() + name.slice(1);
  const [types, union] = spec.errors;
  const result = spec.payload
    ? {
        result: { name: `${typeName}Payload`, description: spec.payload[0] },
        dataField: { name: spec.payload[1], description: spec.payload[2] },
      }
    : { directResult: true as const };
  builder.mutationField(name, (t) =>
    t.field({
      type: spec.type,
      description: spec.description,
      ...upstreamCalls({ kind: 'write', calls: 1 }),
      args: { input: t.arg({ type: spec.input[0], required: true, description: spec.input[1] }) },
      errors: { types: [...types], union: { name: `${typeName}Result`, description: union }, ...result },
      // As never: Pothos cannot follow the generic answer through the errors plugin's union.
      resolve: (_root, args, ctx) => spec.resolve((args as { input: Input }).input, ctx) as never,
    }),
  );
}
