// node(id), nodes(ids) and Ref.node: the type comes from the id's prefix; ids of types this schema
// does not hold resolve to null without an upstream call.

import type { Context } from '../../context';
import { badInput } from '../../errors';
import { listedById } from '../account-graph/listed-nodes';
import { builder } from '../builder';
import { ENDPOINT_BY_ID } from '../endpoints/endpoints';
import { TUNNEL_BY_ID } from '../tunnels/tunnels';
import { type FetchingByKind, upstreamCalls } from '../upstream-calls';
import { decodeNodeId, type NodeKind, nodeKindOf } from './node-ids';
import { RefType } from './refs';

interface NodeLookup {
  load(id: string): Promise<unknown>;
  loadMany(ids: readonly string[]): Promise<unknown[]>;
}

/** The operation's lookup of each node kind (context.ts). */
const LOOKUPS: Record<NodeKind, (ctx: Context) => NodeLookup> = {
  tunnel: (ctx) => ctx.tunnels,
  endpoint: (ctx) => ctx.endpoints,
  tunnelSession: (ctx) => ctx.tunnelSessions,
  reservedDomain: (ctx) => ctx.reservedDomains,
  reservedAddress: (ctx) => ctx.reservedAddresses,
};

const MAX_IDS = 100;

/** The account graph's kinds: one filtered list call per 100 ids of a batch (ListedLookup). */
const ACCOUNT_GRAPH: FetchingByKind = {
  tunnelSession: listedById('TunnelSession'),
  reservedDomain: listedById('ReservedDomain'),
  reservedAddress: listedById('ReservedAddress'),
};

/** What node and nodes fetch, by the id's kind (the lookups of LOOKUPS). */
const BY_ID: FetchingByKind = { tunnel: TUNNEL_BY_ID, endpoint: ENDPOINT_BY_ID, ...ACCOUNT_GRAPH };

/**
 * What Ref.node fetches: endpoints as by id; tunnels through TunnelLookup.loadReference, which lists the
 * newest 100 first when a batch holds two or more, then GETs the ids the list missed.
 */
const BY_REFERENCE: FetchingByKind = {
  tunnel: { typename: 'Tunnel', fetching: 'list-then-get' },
  endpoint: ENDPOINT_BY_ID,
  ...ACCOUNT_GRAPH,
};

async function resolveNodes(ids: readonly string[], ctx: Context): Promise<unknown[]> {
  if (ids.length > MAX_IDS) throw badInput(`nodes takes at most ${MAX_IDS} ids, got ${ids.length}.`);
  // Malformed ids are BAD_USER_INPUT; ids of kinds this schema does not hold stay null.
  for (const id of ids) decodeNodeId(id);
  const kinds = ids.map(nodeKindOf);
  const results: unknown[] = ids.map(() => null);
  await Promise.all(
    (Object.keys(LOOKUPS) as NodeKind[]).map(async (kind) => {
      const positions = kinds.flatMap((k, i) => (k === kind ? [i] : []));
      if (positions.length === 0) return;
      const loaded = await LOOKUPS[kind](ctx).loadMany(positions.map((i) => ids[i] ?? ''));
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
    description:
      'The object this reference points at, when this schema serves its type (Tunnel, Endpoint,\nTunnelSession, ReservedDomain, ReservedAddress) and it still exists; else null. The references of\none response are fetched together (one upstream list call per 100 ids of a kind, never one call per\nreference).',
    ...upstreamCalls({ kind: 'join', fetching: BY_REFERENCE }),
    resolve: (ref, _args, ctx) => {
      // By prefix, and only a kind its field declares: any other id (whatever the upstream sent) is
      // null with no call, as the planner predicted.
      const kind = nodeKindOf(ref.id);
      if (kind === undefined || !ref.to.includes(kind)) return null;
      // Tunnels by reference: a list of the newest first (see BY_REFERENCE).
      return kind === 'tunnel' ? ctx.tunnels.loadReference(ref.id) : LOOKUPS[kind](ctx).load(ref.id);
    },
  }),
);
