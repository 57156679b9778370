// Ref: a reference to another ngrok resource as the upstream sends it (id and uri), and the options
// of a field that holds one; its `node` field is declared in nodes.ts, which sees the node types.
import type { IdKind } from '../../ids';
import type { Ref } from '../../upstream';
import { builder } from '../builder';
import { upstreamCalls } from '../upstream-calls';

export const RefType = builder.objectRef<Ref>('Ref').implement({
  description: 'A reference to another ngrok resource.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The identifier of the resource.' }),
    uri: t.exposeString('uri', { description: 'The ngrok API URI of the resource.' }),
  }),
});

/**
 * A field holding a Ref, or null, whose `node` may be of the kinds `to` (none: Ref.node is null
 * without a call), declared for the demand planner: `t.expose('domain', { ...refTo([…]), description })`.
 */
export const refTo = (to: readonly IdKind[]) => ({
  type: RefType,
  nullable: true as const,
  ...upstreamCalls({ kind: 'refers', to }),
});
