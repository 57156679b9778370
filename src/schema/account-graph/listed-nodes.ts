// What the account graph's node types share, written once: a node loaded through the operation's
// lookup of its kind (node, nodes, Ref.node and the by-id field all batch there), its two query fields (a
// forward connection over limit/before_id paging and a by-id field), and the reverse join to the
// endpoints that refer to it (one filtered endpoints call per page).
import { ENDPOINT, type NodeResource } from '../../resources';
import { equals } from '../../upstream';
import { builder } from '../builder';
import { EndpointConnection, EndpointNode } from '../endpoints/endpoints';
import { inlineRead } from '../inline-reads';
import { byIdField } from '../relay/by-id-field';
import { cursorOf } from '../relay/cursors';
import { forwardPage } from '../relay/forward-connection';
import { upstreamCalls } from '../upstream-calls';

/** The node's ref, named by its descriptor; the caller implements its fields (`isNodeOf` as its isTypeOf). */
export function listedNodeRef<T extends { readonly id: string }>(resource: NodeResource) {
  return builder.nodeRef<T>(resource.typeName, {
    id: {
      resolve: (item) => item.id,
      description: `The upstream's own identifier (${resource.prefix}_…).`,
      ...inlineRead,
    },
  });
}

/** The connection field (`list`: tunnelSessions) and the by-id field (named for the kind: tunnelSession). */
interface ListedQueriesSpec {
  readonly resource: NodeResource;
  readonly list: string;
  readonly listDescription: string;
  readonly oneDescription: string;
  /** The descriptions of the connection type (<Name>Connection) and its edge type (<Name>Edge). */
  readonly connection: string;
  readonly edge: string;
}

/** The list and by-id fields of a node kind; returns its connection type (for reverse joins to it). */
export function listedQueries<T extends { readonly id: string }>(
  node: ReturnType<typeof listedNodeRef<T>>,
  spec: ListedQueriesSpec,
) {
  const { resource } = spec;
  const connection = builder.connectionObject(
    { type: node, name: `${resource.typeName}Connection`, description: spec.connection },
    { name: `${resource.typeName}Edge`, description: spec.edge },
  );
  builder.queryField(spec.list, (t) =>
    t.connection(
      {
        type: node,
        description: spec.listDescription,
        ...upstreamCalls({ kind: 'page' }),
        // Pothos cannot follow a generic node type through the connection's shape: the shape is forwardPage's.
        resolve: (_root, args, ctx) =>
          forwardPage(spec.list, args, cursorOf(resource), (first, beforeId) =>
            ctx.lookups.ofKind(resource.kind).page(first, beforeId),
          ) as never,
      },
      connection,
    ),
  );
  byIdField(resource.kind, node, resource, spec.oneDescription);
  return connection;
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
          forwardPage('endpoints', args, cursorOf(ENDPOINT), (first, beforeId) =>
            ctx.lookups.of(ENDPOINT).page(first, beforeId, equals(field, parent.id)),
          ) as never,
      },
      EndpointConnection,
    ),
  );
}
