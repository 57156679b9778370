// A query field that reads one node by its id (tunnel, endpoint, tunnelSession, …): the id checked
// for its kind, loaded through the operation's lookup of that kind, null when there is none.
import type { ObjectRef } from '@pothos/core';
import type { NodeResource } from '../../resources';
import { builder, type SchemaTypes } from '../builder';
import { fetchedById, upstreamCalls } from '../upstream-calls';
import { idArgDescription, nodeIdOf } from './node-ids';

/** `name(id: ID!)`: the `resource` with this id, or null. */
export function byIdField<T>(
  name: string,
  node: ObjectRef<SchemaTypes, T>,
  resource: NodeResource,
  description: string,
): void {
  builder.queryField(name, (t) =>
    t.field({
      type: node,
      nullable: true,
      description,
      args: { id: t.arg.id({ required: true, description: idArgDescription(resource) }) },
      ...upstreamCalls({ kind: 'lookup', arg: 'id', fetching: { [resource.kind]: fetchedById(resource) } }),
      // As never: Pothos cannot follow a generic node type to its resolver's answer.
      resolve: (_root, { id }, ctx) =>
        ctx.lookups.ofKind(resource.kind).load(nodeIdOf(id, resource)) as never,
    }),
  );
}
