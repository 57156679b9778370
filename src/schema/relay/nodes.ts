// node(id), nodes(ids) and Ref.node: the type comes from the id's prefix; ids of types this schema
// does not hold resolve to null without an upstream call.

import type { Context } from '../../context';
import { badInput } from '../../errors';
import { NODE_RESOURCES } from '../../resources';
import { builder } from '../builder';
import { type FetchingByKind, fetchedById, fetchedByReference, upstreamCalls } from '../upstream-calls';
import { decodeNodeId, nodeKindOf } from './node-ids';
import { RefType } from './refs';

const MAX_IDS = 100;

/** What node and nodes fetch, by the id's kind. */
const BY_ID: FetchingByKind = Object.fromEntries(NODE_RESOURCES.map((r) => [r.kind, fetchedById(r)]));

/** What Ref.node fetches, by the id's kind (tunnels: the newest 100 listed first, then a GET each missed). */
const BY_REFERENCE: FetchingByKind = Object.fromEntries(
  NODE_RESOURCES.map((r) => [r.kind, fetchedByReference(r)]),
);

const NODE_TYPES = NODE_RESOURCES.map((r) => r.typeName).join(', ');

async function resolveNodes(ids: readonly string[], ctx: Context): Promise<unknown[]> {
  if (ids.length > MAX_IDS) throw badInput(`nodes takes at most ${MAX_IDS} ids, got ${ids.length}.`);
  // Malformed ids are BAD_USER_INPUT; ids of kinds this schema does not hold stay null.
  for (const id of ids) decodeNodeId(id);
  const kinds = ids.map(nodeKindOf);
  const results: unknown[] = ids.map(() => null);
  await Promise.all(
    NODE_RESOURCES.map(async (resource) => {
      const positions = kinds.flatMap((k, i) => (k === resource.kind ? [i] : []));
      if (positions.length === 0) return;
      const loaded = await ctx.lookups.ofKind(resource.kind).loadMany(positions.map((i) => ids[i] ?? ''));
      positions.forEach((position, j) => {
        results[position] = loaded[j];
      });
    }),
  );
  return results;
}

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description: 'The object with this id; null when it does not exist or its type is not in this schema.',
    args: {
      id: t.arg.id({ required: true, description: 'An ngrok id; its prefix names the type (tn_ → Tunnel).' }),
    },
    ...upstreamCalls({ kind: 'lookup', arg: 'id', fetching: BY_ID }),
    resolve: async (_root, { id }, ctx) => {
      const [node] = await resolveNodes([id], ctx);
      if (node instanceof Error) throw node;
      return node;
    },
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: 'The objects with these ids, in order; null for each id that does not resolve.',
    args: { ids: t.arg.idList({ required: true, description: 'At most 100 ngrok ids.' }) },
    ...upstreamCalls({ kind: 'lookup', arg: 'ids', most: MAX_IDS, fetching: BY_ID }),
    // A failed item becomes a rejected promise: null with its error in `errors`, the rest intact.
    resolve: async (_root, { ids }, ctx) =>
      (await resolveNodes(ids, ctx)).map((node) => (node instanceof Error ? Promise.reject(node) : node)),
  }),
}));

// Declared here, not in refs.ts: it needs the node types loaded (refs.ts is imported first).
builder.objectField(RefType, 'node', (t) =>
  t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description: `The object this reference points at, when this schema serves its type\n(${NODE_TYPES}) and it still exists; else null.\nThe references of one response are fetched together (one upstream list call per 100 ids of a kind,\nnever one call per reference).`,
    ...upstreamCalls({ kind: 'join', fetching: BY_REFERENCE }),
    resolve: (ref, _args, ctx) => {
      // By prefix, and only a kind its field declares: any other id (whatever the upstream sent) is
      // null with no call, as the planner predicted.
      const kind = nodeKindOf(ref.id);
      if (kind === undefined || !ref.to.includes(kind)) return null;
      // As the kind's descriptor says (BY_REFERENCE): tunnels through a list of the newest first.
      return ctx.lookups.ofKind(kind).loadReference(ref.id);
    },
  }),
);
