// Tunnels: the Tunnel node, `tunnels` (a connection over limit/before_id paging) and `tunnel(id)`.
import type { TunnelLabel as Label, TunnelProtocol as Protocol, Tunnel } from '../../upstream';
import { builder } from '../builder';
import { inlineRead } from '../inline-reads';
import { byIdField } from '../relay/by-id-field';
import { TUNNEL_CURSOR } from '../relay/cursors';
import { forwardPage } from '../relay/forward-connection';
import { refsTo, refTo, requiredRefTo } from '../relay/refs';
import { upstreamCalls } from '../upstream-calls';

const TunnelProtocol = builder.enumType('TunnelProtocol', {
  description: 'The protocol of an agent-initiated tunnel.',
  values: {
    HTTP: { value: 'http', description: 'HTTP' },
    HTTPS: { value: 'https', description: 'HTTPS' },
    TCP: { value: 'tcp', description: 'Raw TCP' },
    TLS: { value: 'tls', description: 'TLS passthrough' },
  } satisfies Record<string, { value: Protocol; description: string }>,
});

const TunnelLabel = builder.objectRef<Label>('TunnelLabel').implement({
  description: 'One label of a backend tunnel, which tunnel group backends match against.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The label name.' }),
    value: t.exposeString('value', { description: 'The label value.' }),
  }),
});

/** A tunnel asked for by id: one GET per distinct id (the upstream's /tunnels has no id filter). */
export const TUNNEL_BY_ID = { typename: 'Tunnel', fetching: 'get-each' } as const;

export const TunnelNode = builder.nodeRef<Tunnel>('Tunnel', {
  id: { resolve: (tunnel) => tunnel.id, description: 'The upstream tunnel id (tn_…).', ...inlineRead },
});

TunnelNode.implement({
  description: 'An online tunnel running on the account.',
  // By shape: a TunnelSession has startedAt too, but never a tunnelSession of its own.
  isTypeOf: (value) =>
    typeof value === 'object' && value !== null && 'startedAt' in value && 'tunnelSession' in value,
  fields: (t) => ({
    publicUrl: t.exposeString('publicUrl', {
      nullable: true,
      description: "URL of the ephemeral tunnel's public endpoint; null for backend tunnels.",
    }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      description: 'When the tunnel started (RFC 3339).',
    }),
    metadata: t.exposeString('metadata', {
      nullable: true,
      description: "User-supplied metadata from the tunnel's own agent configuration.",
    }),
    proto: t.expose('proto', {
      type: TunnelProtocol,
      nullable: true,
      description:
        'Protocol of an agent tunnel; null for backend tunnels or a protocol this schema does not know.',
    }),
    region: t.exposeString('region', { description: 'The region where the tunnel runs (us, eu, ap, …).' }),
    tunnelSession: t.field({
      ...requiredRefTo(['tunnelSession'], (tunnel) => tunnel.tunnelSession),
      description: 'The tunnel session on which this tunnel was started.',
    }),
    endpoint: t.field({
      ...refTo(['endpoint'], (tunnel) => tunnel.endpoint),
      description: 'The ephemeral endpoint of an agent-initiated tunnel.',
    }),
    labels: t.expose('labels', {
      type: [TunnelLabel],
      nullable: true,
      description: 'Null unless this is a backend (labeled) tunnel. Sorted by name.',
    }),
    backends: t.field({
      ...refsTo([], (tunnel) => tunnel.backends),
      description:
        'Null when the upstream sends none. A single Ref from the upstream becomes a one-item list.',
    }),
    forwardsTo: t.exposeString('forwardsTo', {
      nullable: true,
      description: 'Where the agent forwards traffic: a URL or a network address.',
    }),
  }),
});

builder.queryField('tunnels', (t) =>
  t.connection(
    {
      type: TunnelNode,
      description: 'Online tunnels, newest first. Forward paging only: first (1..100, default 20) and after.',
      ...upstreamCalls({ kind: 'page' }),
      resolve: (_root, args, ctx) =>
        forwardPage('tunnels', args, TUNNEL_CURSOR, (first, beforeId) => ctx.tunnels.page(first, beforeId)),
    },
    { name: 'TunnelConnection', description: 'A page of online tunnels.' },
    { name: 'TunnelEdge', description: 'One tunnel of a page, with its cursor.' },
  ),
);

byIdField('tunnel', TunnelNode, {
  kind: 'tunnel',
  description: 'Null when no online tunnel has this id.',
  fetched: TUNNEL_BY_ID,
  load: (ctx, id) => ctx.tunnels.load(id),
});
