// The schema builder and its plugin options; no types are defined here (see the domain files).
import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import type { Context } from '../context';
import { decodeNodeId } from './node-ids';

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
  plugins: [ErrorsPlugin, RelayPlugin, DataloaderPlugin],
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    edgesFieldOptions: { nullable: { list: false, items: false } },
    nodeFieldOptions: { nullable: false },
    nodesOnConnection: true,
    // The upstream's own ids are the global ids: users paste them from the dashboard as they are.
    encodeGlobalID: (_typename, id) => String(id),
    decodeGlobalID: (globalID) => decodeNodeId(globalID),
    nodeTypeOptions: { description: 'An object with an id that `node` and `nodes` can fetch.' },
    pageInfoTypeOptions: { description: 'Where a page of a connection stands in the whole list.' },
    // node and nodes are defined in nodes.ts, which can see the loadable types.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  errors: {},
});
