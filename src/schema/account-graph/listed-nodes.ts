// What the account graph's node types share, written once: a node loaded through the operation's
// lookup of its kind (node, nodes, Ref.node and the by-id field all batch there), its two query fields (a
// forward connection over limit/before_id paging and a by-id field), and the reverse join to the
// endpoints that refer to it (one filtered endpoints call per page).
import type { Context } from '../../context';
import { ID_KINDS, isIdOf } from '../../ids';
import type { ListedLookup } from '../../lookups';
import { equals } from '../../upstream';
import { builder } from '../builder';
import { EndpointConnection, EndpointNode } from '../endpoints/endpoints';
import { inlineRead } from '../inline-reads';
import { byIdField } from '../relay/by-id-field';
import { type CursorCodec, ENDPOINT_CURSOR } from '../relay/cursors';
import { forwardPage } from '../relay/forward-connection';
import type { NodeKind } from '../relay/node-ids';
import { type Fetched, upstreamCalls } from '../upstream-calls';

interface ListedNodeSpec<T> {
  readonly name: string;
  readonly kind: NodeKind;
  readonly lookup: (ctx: Context) => ListedLookup<T & { readonly id: string }>;
}

/** The node's ref; the caller implements its fields (with `isListedKind` as its isTypeOf). */
export function listedNodeRef<T extends { readonly id: string }>(spec: ListedNodeSpec<T>) {
  return builder.nodeRef<T>(spec.name, {
    id: {
      resolve: (item) => item.id,
      description: `The upstream's own identifier (${ID_KINDS[spec.kind]}_…).`,
      ...inlineRead,
    },
  });
}

/** How a kind of the account graph is fetched by id or reference: one filtered list per 100 ids. */
export const listedById = (typename: string): Fetched => ({ typename, fetching: 'list-by-ids' });

/** isTypeOf by the id's prefix: the kinds never share one. */
export const isListedKind =
  (kind: NodeKind) =>
  (value: unknown): boolean =>
    typeof value === 'object' && value !== null && isIdOf(String((value as { id?: unknown }).id), kind);

/** The connection field (`list`: tunnelSessions) and the by-id field (named for the kind: tunnelSession). */
interface ListedQueriesSpec<T> extends ListedNodeSpec<T> {
  readonly list: string;
  readonly cursor: CursorCodec;
  readonly listDescription: string;
  readonly oneDescription: string;
  /** The descriptions of the connection type (<Name>Connection) and its edge type (<Name>Edge). */
  readonly connection: string;
  readonly edge: string;
}

export function listedQueries<T extends { readonly id: string }>(
  node: ReturnType<typeof listedNodeRef<T>>,
  spec: ListedQueriesSpec<T>,
): void {
  builder.queryField(spec.list, (t) =>
    t.connection(
      {
        type: node,
        description: spec.listDescription,
        ...upstreamCalls({ kind: 'page' }),
        // Pothos cannot follow a generic node type through the connection's shape: the shape is forwardPage's.
        resolve: (_root, args, ctx) =>
          forwardPage(spec.list, args, spec.cursor, (first, beforeId) =>
            spec.lookup(ctx).page(first, beforeId),
          ) as never,
      },
      { name: `${spec.name}Connection`, description: spec.connection },
      { name: `${spec.name}Edge`, description: spec.edge },
    ),
  );
  byIdField(spec.kind, node, {
    kind: spec.kind,
    description: spec.oneDescription,
    fetched: listedById(spec.name),
    load: (ctx, id) => spec.lookup(ctx).load(id),
  });
}

/** `endpoints(first, after)` on a node: the endpoints whose `field` (a Ref's id) is the node's id. */
export function endpointsReferring<T extends { readonly id: string }>(
  node: ReturnType<typeof listedNodeRef<T>>,
  field: string,
  description: string,
): void {
  builder.objectField(node, 'endpoints', (t) =>
    t.connection(
      {
        type: EndpointNode,
        description,
        // One filtered endpoints call per page, for each object that holds the field.
        ...upstreamCalls({ kind: 'page' }),
        resolve: (parent, args, ctx) =>
          forwardPage('endpoints', args, ENDPOINT_CURSOR, (first, beforeId) =>
            ctx.endpoints.page(first, beforeId, equals(field, parent.id)),
          ) as never,
      },
      EndpointConnection,
    ),
  );
}
