// Tunnels: the Tunnel node, `tunnels` (a connection over limit/before_id paging) and `tunnel(id)`.
import {
  BACKENDS,
  ENDPOINT,
  type TunnelLabel as Label,
  MOST_BACKENDS_PER_TUNNEL,
  type TunnelProtocol as Protocol,
  TUNNEL,
  TUNNEL_SESSION,
  type Tunnel,
} from '../../resources';
import { builder } from '../builder';
import { inlineRead } from '../inline-reads';
import { byIdField } from '../relay/by-id-field';
import { cursorOf } from '../relay/cursors';
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

export const TunnelLabel = builder.objectRef<Label>('TunnelLabel').implement({
  description: 'One label of a backend tunnel, which tunnel group backends match against.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The label name.' }),
    value: t.exposeString('value', { description: 'The label value.' }),
  }),
});

export const TunnelNode = builder.nodeRef<Tunnel>(TUNNEL.typeName, {
  id: {
    resolve: (tunnel) => tunnel.id,
    description: `The upstream tunnel id (${TUNNEL.prefix}_…).`,
    ...inlineRead,
  },
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
      ...requiredRefTo([TUNNEL_SESSION], (tunnel) => tunnel.tunnelSession),
      description: 'The tunnel session on which this tunnel was started.',
    }),
    endpoint: t.field({
      ...refTo([ENDPOINT], (tunnel) => tunnel.endpoint),
      description: 'The ephemeral endpoint of an agent-initiated tunnel.',
    }),
    labels: t.expose('labels', {
      type: [TunnelLabel],
      nullable: true,
      description: 'Null unless this is a backend (labeled) tunnel. Sorted by name.',
    }),
    backends: t.field({
      ...refsTo(BACKENDS, (tunnel) => tunnel.backends, MOST_BACKENDS_PER_TUNNEL),
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
      // As the provider marks GET /tunnels; the field and its answers stay as they are.
      deprecationReason:
        "The provider deprecated GET /tunnels in favour of GET /endpoints: use endpoints (each agent tunnel has an agent endpoint, ep_ with the tunnel's suffix). It still answers.",
      ...upstreamCalls({ kind: 'page' }),
      resolve: (_root, args, ctx) =>
        forwardPage('tunnels', args, cursorOf(TUNNEL), (first, beforeId) =>
          ctx.lookups.of(TUNNEL).page(first, beforeId),
        ),
    },
    { name: `${TUNNEL.typeName}Connection`, description: 'A page of online tunnels.' },
    { name: `${TUNNEL.typeName}Edge`, description: 'One tunnel of a page, with its cursor.' },
  ),
);

byIdField('tunnel', TunnelNode, TUNNEL, 'Null when no online tunnel has this id.');
