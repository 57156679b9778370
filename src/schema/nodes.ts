// node(id), nodes(ids) and Ref.node: the type comes from the id's prefix; ids of types this schema
// does not hold resolve to null without an upstream call.

import type { Context } from '../context';
import { badInput } from '../errors';
import { kindOf } from '../ids';
import { builder } from './builder';
import { ENDPOINT_BY_ID, EndpointNode } from './endpoints';
import { listedById } from './listed-nodes';
import { decodeNodeId } from './node-ids';
import { RefType } from './refs';
import { TUNNEL_BY_ID, TunnelNode } from './tunnels';
import { type FetchingByKind, upstreamCalls } from './upstream-calls';

type Loader = (ids: string[], ctx: Context) => Promise<unknown[]>;

const LOADERS: Record<string, Loader> = {
  Tunnel: (ids, ctx) => TunnelNode.getDataloader(ctx).loadMany(ids),
  Endpoint: (ids, ctx) => EndpointNode.getDataloader(ctx).loadMany(ids),
  TunnelSession: (ids, ctx) => ctx.tunnelSessions.loader.loadMany(ids),
  ReservedDomain: (ids, ctx) => ctx.reservedDomains.loader.loadMany(ids),
  ReservedAddress: (ids, ctx) => ctx.reservedAddresses.loader.loadMany(ids),
};

const MAX_IDS = 100;

/** The account graph's kinds: one filtered list call per 100 ids of a batch (ListedLookup). */
const ACCOUNT_GRAPH: FetchingByKind = {
  tunnelSession: listedById('TunnelSession'),
  reservedDomain: listedById('ReservedDomain'),
  reservedAddress: listedById('ReservedAddress'),
};

/** What node and nodes fetch, by the id's kind (the loaders of LOADERS). */
const BY_ID: FetchingByKind = { tunnel: TUNNEL_BY_ID, endpoint: ENDPOINT_BY_ID, ...ACCOUNT_GRAPH };

/**
 * What Ref.node fetches: endpoints as by id; tunnels through TunnelLookup.referenced, which lists the
 * newest 100 first when a batch holds two or more, then GETs the ids the list missed.
 */
const BY_REFERENCE: FetchingByKind = {
  tunnel: { typename: 'Tunnel', fetching: 'list-then-get' },
  endpoint: ENDPOINT_BY_ID,
  ...ACCOUNT_GRAPH,
};

async function resolveNodes(ids: readonly string[], ctx: Context): Promise<unknown[]> {
  if (ids.length > MAX_IDS) throw badInput(`nodes takes at most ${MAX_IDS} ids, got ${ids.length}.`);
  const decoded = ids.map(decodeNodeId);
  const results: unknown[] = decoded.map(() => null);
  await Promise.all(
    Object.entries(LOADERS).map(async ([typename, load]) => {
      const positions = decoded.flatMap((d, i) => (d.typename === typename ? [i] : []));
      if (positions.length === 0) return;
      const loaded = await load(
        positions.map((i) => decoded[i]?.id ?? ''),
        ctx,
      );
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

// Declared here, not in refs.ts: only this file sees the loadable types (refs.ts is imported first).
builder.objectField(RefType, 'node', (t) =>
  t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'The object this reference points at, when this schema serves its type (Tunnel, Endpoint,\nTunnelSession, ReservedDomain, ReservedAddress) and it still exists; else null. The references of\none response are fetched together (one upstream list call per 100 ids of a kind, never one call per\nreference).',
    ...upstreamCalls({ kind: 'join', fetching: BY_REFERENCE }),
    resolve: (ref, _args, ctx) => {
      // By prefix: an id of another kind, or in a shape we do not know, is no object of ours.
      const kind = kindOf(ref.id);
      if (kind === 'endpoint') return EndpointNode.getDataloader(ctx).load(ref.id);
      if (kind === 'tunnel') return ctx.tunnels.referenced.load(ref.id);
      if (kind === 'tunnelSession') return ctx.tunnelSessions.loader.load(ref.id);
      if (kind === 'reservedDomain') return ctx.reservedDomains.loader.load(ref.id);
      if (kind === 'reservedAddress') return ctx.reservedAddresses.loader.load(ref.id);
      return null;
    },
  }),
);
