// The schema builder and its plugin options; no types are defined here (see the domain files).
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import type { Context } from '../context';
import { inlineRead } from './inline-reads';
import { decodeNodeId } from './relay/node-ids';
import { wrapper } from './upstream-calls';

export const builder = new SchemaBuilder<{
  Context: Context;
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: string; Output: string };
  };
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
  plugins: [ErrorsPlugin, RelayPlugin],
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Connections hold their edges, page info and nodes as plain values (relay/forward-connection.ts).
    edgesFieldOptions: {
      nullable: { list: false, items: false },
      description: 'The items of this page, with cursors.',
      ...inlineRead,
    },
    nodeFieldOptions: { nullable: false, description: 'The item.', ...inlineRead },
    nodesOnConnection: { description: 'The items of this page, without cursors.' },
    idFieldOptions: { description: "The upstream's own identifier (tn_…); its prefix names the type." },
    cursorFieldOptions: {
      description: 'Opaque cursor of this item: pass it as `after` to read the items after it.',
    },
    pageInfoFieldOptions: { description: 'Where this page stands in the whole list.', ...inlineRead },
    hasNextPageFieldOptions: { description: 'True when more items follow this page (exact).' },
    hasPreviousPageFieldOptions: { description: 'Always false: the upstream pages forward only.' },
    startCursorFieldOptions: { description: 'Cursor of the first item of this page; null when it is empty.' },
    endCursorFieldOptions: {
      description: 'Cursor of the last item of this page: the `after` of the next page.',
    },
    firstArgOptions: { description: 'How many items, 1..100 (default 20).' },
    afterArgOptions: { description: 'The endCursor of the previous page.' },
    lastArgOptions: {
      description: 'Not supported (the upstream cannot page backwards): an error when given.',
    },
    beforeArgOptions: {
      description: 'Not supported (the upstream cannot page backwards): an error when given.',
    },
    // The upstream's own ids are the global ids: users paste them from the dashboard as they are.
    encodeGlobalID: (_typename, id) => String(id),
    decodeGlobalID: (globalID) => decodeNodeId(globalID),
    nodeTypeOptions: { description: 'An object with an id that `node` and `nodes` can fetch.' },
    pageInfoTypeOptions: {
      description: 'Where a page of a connection stands in the whole list.',
      ...wrapper,
    },
    // Connections and their edges carry objects; the demand planner counts those, not the wrappers.
    defaultConnectionTypeOptions: wrapper,
    defaultEdgeTypeOptions: wrapper,
    // node and nodes are defined in relay/nodes.ts, over the operation's lookups.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  errors: {},
});

/** The schema's own Pothos types (context, scalars), as the builder was made with: for helpers' refs. */
export type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
