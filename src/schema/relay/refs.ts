// Ref: a reference to another ngrok resource as the upstream sends it (id and uri), handed on with
// the kinds its field declares, and the options of a field that holds one; its `node` field is
// declared in nodes.ts, which sees the node types.
import type { IdKind } from '../../ids';
import type { NodeResource, Ref } from '../../resources';
import { builder } from '../builder';
import { upstreamCalls, wrapper } from '../upstream-calls';

/**
 * A reference as Ref.node sees it: the upstream's, with the kinds its field may name. Ref.node joins
 * only those (what the planner predicted), whatever prefix the upstream's id carries.
 */
export interface HeldRef extends Ref {
  readonly to: readonly IdKind[];
}

export const RefType = builder.objectRef<HeldRef>('Ref').implement({
  description: 'A reference to another ngrok resource.',
  ...wrapper,
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The identifier of the resource.' }),
    uri: t.exposeString('uri', { description: 'The ngrok API URI of the resource.' }),
  }),
});

const held = (ref: Ref, to: readonly IdKind[]): HeldRef => ({ id: ref.id, uri: ref.uri, to });

const kindsOf = (to: readonly NodeResource[]): readonly IdKind[] => to.map((resource) => resource.kind);

/**
 * A field holding the Ref `read` finds (or null), whose `node` may be of the kinds `to` (none:
 * Ref.node is null without a call), declared for the demand planner:
 * `t.field({ ...refTo([TUNNEL], (endpoint) => endpoint.tunnel), description })`.
 */
export const refTo = <P>(to: readonly NodeResource[], read: (parent: P) => Ref | null | undefined) => {
  const kinds = kindsOf(to);
  return {
    type: RefType,
    nullable: true as const,
    ...upstreamCalls({ kind: 'refers', to: kinds }),
    resolve: (parent: P): HeldRef | null => {
      const ref = read(parent);
      return ref ? held(ref, kinds) : null;
    },
  };
};

/** refTo for a field that always holds a Ref. */
export const requiredRefTo = <P>(to: readonly NodeResource[], read: (parent: P) => Ref) => {
  const kinds = kindsOf(to);
  return {
    type: RefType,
    ...upstreamCalls({ kind: 'refers', to: kinds }),
    resolve: (parent: P): HeldRef => held(read(parent), kinds),
  };
};

/** refTo for a list of Refs (or null), of at most `most` (for the planner; 1 when absent). */
export const refsTo = <P>(
  to: readonly NodeResource[],
  read: (parent: P) => readonly Ref[] | null | undefined,
  most?: number,
) => {
  const kinds = kindsOf(to);
  return {
    type: [RefType] as [typeof RefType],
    nullable: true as const,
    ...upstreamCalls({ kind: 'refers', to: kinds, ...(most === undefined ? {} : { most }) }),
    resolve: (parent: P): HeldRef[] | null => read(parent)?.map((ref) => held(ref, kinds)) ?? null,
  };
};

/** refsTo for a field that always holds a list (empty when there are none). */
export const requiredRefsTo = <P>(
  to: readonly NodeResource[],
  read: (parent: P) => readonly Ref[],
  most: number,
) => {
  const kinds = kindsOf(to);
  return {
    type: [RefType] as [typeof RefType],
    ...upstreamCalls({ kind: 'refers', to: kinds, most }),
    resolve: (parent: P): HeldRef[] => read(parent).map((ref) => held(ref, kinds)),
  };
};
