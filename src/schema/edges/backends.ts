// The five backends an HTTPS edge route's module may name, as nodes (node, nodes, Ref.node: one GET
// per distinct id, the upstream having no filter for them): TunnelGroupBackend, FailoverBackend,
// WeightedBackend, HttpResponseBackend, StaticBackend, and the references each holds.
import {
  BACKENDS,
  FAILOVER_BACKEND,
  type FailoverBackend,
  HTTP_RESPONSE_BACKEND,
  type HttpHeader,
  type HttpResponseBackend,
  MOST_BACKENDS_PER_BACKEND,
  MOST_TUNNELS_PER_GROUP,
  STATIC_BACKEND,
  type StaticBackend,
  TUNNEL,
  TUNNEL_GROUP_BACKEND,
  type TunnelGroupBackend,
  WEIGHTED_BACKEND,
  type WeightedBackend,
  type WeightedBackendEntry,
} from '../../resources';
import { listedNodeRef } from '../account-graph/listed-nodes';
import { builder } from '../builder';
import { isNodeOf } from '../relay/node-ids';
import { requiredRefsTo, requiredRefTo } from '../relay/refs';
import { TunnelLabel } from '../tunnels/tunnels';
import { upstreamCalls } from '../upstream-calls';

const TunnelGroupBackendNode = listedNodeRef<TunnelGroupBackend>(TUNNEL_GROUP_BACKEND);
const FailoverBackendNode = listedNodeRef<FailoverBackend>(FAILOVER_BACKEND);
const WeightedBackendNode = listedNodeRef<WeightedBackend>(WEIGHTED_BACKEND);
const HttpResponseBackendNode = listedNodeRef<HttpResponseBackend>(HTTP_RESPONSE_BACKEND);
const StaticBackendNode = listedNodeRef<StaticBackend>(STATIC_BACKEND);

const DESCRIPTION = { nullable: true, description: 'Free text.' } as const;
const METADATA = { nullable: true, description: 'User metadata.' } as const;
const CREATED_AT = { type: 'DateTime', description: 'When it was created.' } as const;

TunnelGroupBackendNode.implement({
  description:
    'A tunnel-group backend (bkdtg_): balances traffic over the online tunnels whose labels match.',
  isTypeOf: isNodeOf(TUNNEL_GROUP_BACKEND),
  fields: (t) => ({
    description: t.exposeString('description', DESCRIPTION),
    metadata: t.exposeString('metadata', METADATA),
    createdAt: t.expose('createdAt', CREATED_AT),
    labels: t.expose('labels', {
      type: [TunnelLabel],
      description: 'The labels a tunnel must carry, every one, to be in the group; sorted by name.',
    }),
    tunnels: t.field({
      ...requiredRefsTo([TUNNEL], (b: TunnelGroupBackend) => b.tunnels, MOST_TUNNELS_PER_GROUP),
      description: 'The online tunnels in the group, as the upstream lists them.',
    }),
  }),
});

FailoverBackendNode.implement({
  description: 'A failover backend (bkdfo_): the first of its backends that can take traffic takes it.',
  isTypeOf: isNodeOf(FAILOVER_BACKEND),
  fields: (t) => ({
    description: t.exposeString('description', DESCRIPTION),
    metadata: t.exposeString('metadata', METADATA),
    createdAt: t.expose('createdAt', CREATED_AT),
    backends: t.field({
      ...requiredRefsTo(BACKENDS, (b: FailoverBackend) => b.backends, MOST_BACKENDS_PER_BACKEND),
      description: 'Its backends, in failover order.',
    }),
  }),
});

const WeightedBackendEntryType = builder.objectRef<WeightedBackendEntry>('WeightedBackendEntry').implement({
  description: 'One backend of a weighted backend, with its weight.',
  fields: (t) => ({
    backend: t.field({
      ...requiredRefTo(BACKENDS, (entry: WeightedBackendEntry) => entry.backend),
      description: 'The backend.',
    }),
    weight: t.exposeInt('weight', { description: 'Its share of the traffic, relative to the others.' }),
  }),
});

WeightedBackendNode.implement({
  description: 'A weighted backend (bkdwd_): traffic split over its backends by weight.',
  isTypeOf: isNodeOf(WEIGHTED_BACKEND),
  fields: (t) => ({
    description: t.exposeString('description', DESCRIPTION),
    metadata: t.exposeString('metadata', METADATA),
    createdAt: t.expose('createdAt', CREATED_AT),
    backends: t.field({
      type: [WeightedBackendEntryType],
      description: 'Its backends with their weights, sorted by backend id.',
      ...upstreamCalls({ kind: 'embedded', most: MOST_BACKENDS_PER_BACKEND }),
      resolve: (b) => b.backends,
    }),
  }),
});

const HttpHeaderType = builder.objectRef<HttpHeader>('HttpHeader').implement({
  description: 'An HTTP header: its name and value.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The header name.' }),
    value: t.exposeString('value', { description: 'The header value.' }),
  }),
});

HttpResponseBackendNode.implement({
  description: 'An HTTP-response backend (bkdhr_): answers every request itself with a fixed response.',
  isTypeOf: isNodeOf(HTTP_RESPONSE_BACKEND),
  fields: (t) => ({
    description: t.exposeString('description', DESCRIPTION),
    metadata: t.exposeString('metadata', METADATA),
    createdAt: t.expose('createdAt', CREATED_AT),
    statusCode: t.exposeInt('statusCode', { description: 'The status of its response.' }),
    body: t.exposeString('body', { nullable: true, description: 'The body of its response.' }),
    headers: t.expose('headers', { type: [HttpHeaderType], description: 'Sorted by name.' }),
  }),
});

StaticBackendNode.implement({
  description: 'A static-address backend (bkdsc_): forwards traffic to a fixed address.',
  isTypeOf: isNodeOf(STATIC_BACKEND),
  fields: (t) => ({
    description: t.exposeString('description', DESCRIPTION),
    metadata: t.exposeString('metadata', METADATA),
    createdAt: t.expose('createdAt', CREATED_AT),
    address: t.exposeString('address', { description: 'host:port.' }),
    tlsEnabled: t.exposeBoolean('tlsEnabled', {
      description: 'Whether traffic to the address is sent over TLS.',
    }),
  }),
});
