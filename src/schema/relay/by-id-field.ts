// A query field that reads one node by its id (tunnel, endpoint, tunnelSession, …): the id checked
// for its kind, loaded through the operation's lookup of that kind, null when there is none.
import type { ObjectRef } from '@pothos/core';
import type { Context } from '../../context';
import { builder, type SchemaTypes } from '../builder';
import { type Fetched, upstreamCalls } from '../upstream-calls';
import { idArgDescription, type NodeKind, nodeIdOf } from './node-ids';

interface ByIdField<T> {
  readonly kind: NodeKind;
  readonly description: string;
  /** How the lookup fetches this kind, for the demand planner. */
  readonly fetched: Fetched;
  load(ctx: Context, id: string): Promise<T | null>;
}

export function byIdField<T>(name: string, node: ObjectRef<SchemaTypes, T>, spec: ByIdField<T>): void {
  builder.queryField(name, (t) =>
    t.field({
      type: node,
      nullable: true,
      description: spec.description,
      args: { id: t.arg.id({ required: true, description: idArgDescription(spec.kind) }) },
      ...upstreamCalls({ kind: 'lookup', arg: 'id', fetching: { [spec.kind]: spec.fetched } }),
      // As never: Pothos cannot follow a generic node type to its resolver's answer.
      resolve: (_root, { id }, ctx) => spec.load(ctx, nodeIdOf(id, spec.kind)) as never,
    }),
  );
}
