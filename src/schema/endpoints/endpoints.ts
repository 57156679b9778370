// Endpoints: the Endpoint node, `endpoints` (a filtered connection over
// limit/before_id paging) and `endpoint(id)`.
import { badInput } from '../../errors';
import {
  ENDPOINT,
  type Endpoint,
  RESERVED_ADDRESS,
  RESERVED_DOMAIN,
  TUNNEL,
  TUNNEL_SESSION,
} from '../../resources';
import { compileEndpointFilter, type EndpointFilterSpec, matchesNothing } from '../../upstream';
import { builder } from '../builder';
import { inlineRead } from '../inline-reads';
import { byIdField } from '../relay/by-id-field';
import { cursorOf } from '../relay/cursors';
import { EMPTY_SLICE, forwardPage } from '../relay/forward-connection';
import { refTo } from '../relay/refs';
import { upstreamCalls } from '../upstream-calls';

const MAX_FILTER_URLS = 100;

const EndpointTypeEnum = builder.enumType('EndpointType', {
  description:
    'Where an endpoint lives: started by an agent (lives as long as the agent) or kept in the cloud.',
  values: {
    AGENT: { value: 'agent', description: 'Started by an agent; lives as long as the agent.' },
    CLOUD: { value: 'cloud', description: 'Kept in the cloud until deleted; serves its Traffic Policy.' },
  } as const,
});
const TYPES = new Set(['agent', 'cloud']);

export const EndpointNode = builder.nodeRef<Endpoint>(ENDPOINT.typeName, {
  id: {
    resolve: (endpoint) => endpoint.id,
    description: `The upstream's own identifier (${ENDPOINT.prefix}_…).`,
    ...inlineRead,
  },
});

EndpointNode.implement({
  description: 'A URL of the account that takes traffic: an agent endpoint or a cloud endpoint.',
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'bindings' in value && 'url' in value,
  fields: (t) => ({
    url: t.exposeString('url', {
      description:
        "The endpoint's URL, e.g. https://app.example.com, https://api.internal or tcp://1.tcp.ngrok.io:20000.",
    }),
    type: t.field({
      type: EndpointTypeEnum,
      nullable: true,
      description: "Null for a type this schema does not know (the upstream's value is then in typeName).",
      resolve: (e) => (TYPES.has(e.type) ? (e.type as 'agent') : null),
    }),
    typeName: t.exposeString('type', {
      description: "The upstream's type string as sent (agent, cloud, or a newer one).",
    }),
    bindings: t.exposeStringList('bindings', {
      description: 'How traffic reaches it: public, internal or kubernetes, as the upstream sends them.',
    }),
    proto: t.exposeString('proto', {
      nullable: true,
      description: "The URL's scheme as the upstream sends it (https, http, tcp, tls); null when absent.",
    }),
    hostport: t.exposeString('hostport', { nullable: true, description: 'Host and port.' }),
    region: t.exposeString('region', { nullable: true, description: 'Where it runs (us, eu, …).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it last changed.',
    }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.exposeString('metadata', { nullable: true, description: 'User metadata.' }),
    trafficPolicy: t.exposeString('trafficPolicy', {
      nullable: true,
      description:
        "The endpoint's Traffic Policy document (YAML or JSON) exactly as stored; null when it has none.",
    }),
    poolingEnabled: t.exposeBoolean('poolingEnabled', {
      description: 'True when several agents may serve this URL together.',
    }),
    upstreamUrl: t.exposeString('upstreamUrl', {
      nullable: true,
      description: 'Where an agent endpoint forwards traffic; null for cloud endpoints.',
    }),
    domain: t.field({ ...refTo([RESERVED_DOMAIN], (e) => e.domain), description: 'Its reserved domain.' }),
    tcpAddr: t.field({ ...refTo([RESERVED_ADDRESS], (e) => e.tcpAddr), description: 'Its TCP address.' }),
    tunnel: t.field({
      ...refTo([TUNNEL], (e) => e.tunnel),
      description: 'The agent tunnel serving it (agent endpoints).',
    }),
    tunnelSession: t.field({
      ...refTo([TUNNEL_SESSION], (e) => e.tunnelSession),
      description: 'The agent session serving it (agent endpoints).',
    }),
    principal: t.field({ ...refTo([], (e) => e.principal), description: 'Who created it.' }),
  }),
});

const EndpointFilterInput = builder.inputType('EndpointFilter', {
  description:
    "Server-side filter: every set field must match (AND); a list matches any of its values (OR).\nThe gateway compiles it into the upstream's own filter expression, so a filtered page costs the\nsame upstream calls as an unfiltered one.",
  fields: (t) => ({
    types: t.field({ type: [EndpointTypeEnum], required: false, description: 'Any of these types.' }),
    urls: t.stringList({ required: false, description: 'Exact URLs (at most 100).' }),
    createdAfter: t.field({
      type: 'DateTime',
      required: false,
      description: 'Endpoints created at or after this instant.',
    }),
  }),
});

interface FilterArgs {
  readonly types?: readonly string[] | null;
  readonly urls?: readonly string[] | null;
  readonly createdAfter?: string | null;
}

function filterSpec(filter: FilterArgs | null | undefined): EndpointFilterSpec {
  if (!filter) return {};
  if (filter.urls && filter.urls.length > MAX_FILTER_URLS) {
    throw badInput(`filter.urls takes at most ${MAX_FILTER_URLS} URLs, got ${filter.urls.length}.`);
  }
  return {
    ...(filter.types ? { types: filter.types } : {}),
    ...(filter.urls ? { urls: filter.urls } : {}),
    ...(filter.createdAfter ? { createdAfter: filter.createdAfter } : {}),
  };
}

/** A page of endpoints: `endpoints`, and the endpoints of an agent or a reservation (the reverse joins). */
export const EndpointConnection = builder.connectionObject(
  { type: EndpointNode, name: `${ENDPOINT.typeName}Connection`, description: 'A page of endpoints.' },
  { name: `${ENDPOINT.typeName}Edge`, description: 'One endpoint of a page, with its cursor.' },
);

builder.queryField('endpoints', (t) =>
  t.connection(
    {
      type: EndpointNode,
      description:
        'Endpoints of the account (agent and cloud), newest first. Forward paging: first (1..100, default 20) and after.',
      ...upstreamCalls({ kind: 'page' }),
      args: { filter: t.arg({ type: EndpointFilterInput, description: 'Which endpoints (default all).' }) },
      resolve: (_root, args, ctx) =>
        forwardPage('endpoints', args, cursorOf(ENDPOINT), async (first, beforeId) => {
          const spec = filterSpec(args.filter);
          if (matchesNothing(spec)) return EMPTY_SLICE;
          return ctx.lookups.of(ENDPOINT).page(first, beforeId, compileEndpointFilter(spec));
        }),
    },
    EndpointConnection,
  ),
);

byIdField('endpoint', EndpointNode, ENDPOINT, 'Null when the account has no endpoint with this id.');
