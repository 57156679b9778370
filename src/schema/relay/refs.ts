// Ref: a reference to another ngrok resource as the upstream sends it (id and uri), handed on with
// the kinds its field declares, and the options of a field that holds one; its `node` field is
// declared in nodes.ts, which sees the node types.
import type { IdKind } from '../../ids';
import type { Ref } from '../../upstream';
import { builder } from '../builder';
import { upstreamCalls } from '../upstream-calls';

/**
 * A reference as Ref.node sees it: the upstream's, with the kinds its field may name. Ref.node joins
 * only those (what the planner predicted), whatever prefix the upstream's id carries.
 */
export interface HeldRef extends Ref {
  readonly to: readonly IdKind[];
}

export const RefType = builder.objectRef<HeldRef>('Ref').implement({
  description: 'A reference to another ngrok resource.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The identifier of the resource.' }),
    uri: t.exposeString('uri', { description: 'The ngrok API URI of the resource.' }),
  }),
});

const held = (ref: Ref, to: readonly IdKind[]): HeldRef => ({ id: ref.id, uri: ref.uri, to });

/**
 * A field holding the Ref `read` finds (or null), whose `node` may be of the kinds `to` (none:
 * Ref.node is null without a call), declared for the demand planner:
 * `t.field({ ...refTo(['tunnel'], (endpoint) => endpoint.tunnel), description })`.
 */
export const refTo = <P>(to: readonly IdKind[], read: (parent: P) => Ref | null | undefined) => ({
  type: RefType,
  nullable: true as const,
  ...upstreamCalls({ kind: 'refers', to }),
  resolve: (parent: P): HeldRef | null => {
    const ref = read(parent);
    return ref ? held(ref, to) : null;
  },
});

/** refTo for a field that always holds a Ref. */
export const requiredRefTo = <P>(to: readonly IdKind[], read: (parent: P) => Ref) => ({
  type: RefType,
  ...upstreamCalls({ kind: 'refers', to }),
  resolve: (parent: P): HeldRef => held(read(parent), to),
});

/** refTo for a list of Refs (or null). */
export const refsTo = <P>(to: readonly IdKind[], read: (parent: P) => readonly Ref[] | null | undefined) => ({
  type: [RefType] as [typeof RefType],
  nullable: true as const,
  ...upstreamCalls({ kind: 'refers', to }),
  resolve: (parent: P): HeldRef[] | null => read(parent)?.map((ref) => held(ref, to)) ?? null,
});
