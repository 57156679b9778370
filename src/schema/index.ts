// Imports every schema file for its side effects, then builds the schema. Nothing imports this
// file back, which keeps circular references between type files safe.

import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import {
  defaultFieldResolver,
  GraphQLSchema,
  isObjectType,
  isSpecifiedScalarType,
  lexicographicSortSchema,
} from 'graphql';
import { builder } from './builder';
import { withInlineReads } from './inline-reads';
import { LiveDirective } from './live/live-directive';
import './scalars';
import './relay/refs';
import './mutation-errors';
import './tunnels/tunnels';
import './endpoints/endpoints';
import './endpoints/mutations';
import './account-graph/tunnel-sessions';
import './account-graph/reservations';
import './account-graph/tunnel-session-commands';
import './account-graph/credentials';
import './account-graph/tls-certificates';
import './relay/nodes';
import './edges/backend-modules';
import './edges/https-edges';
import './edges/backends';
import './live/tunnel-events';
import './live/endpoint-events';
import './live/tunnel-session-events';

builder.queryType({
  description:
    'Reads: tunnels, endpoints, agents, reserved domains and addresses, HTTPS edges and their backends,\ncredentials, TLS certificates.',
});
builder.mutationType({
  description: 'Writes: cloud endpoints, commands to agents, and the backend module of an HTTPS edge route.',
});
builder.subscriptionType({
  description: 'Live streams over GraphQL over SSE or the graphql-ws WebSocket protocol on /graphql.',
});

/**
 * Pothos lists every built-in scalar; left out here, only those a field or argument uses come back
 * (GraphQLSchema collects them), so introspection shows no unused Float.
 */
function withoutUnusedScalars(built: GraphQLSchema): GraphQLSchema {
  const config = built.toConfig();
  return new GraphQLSchema({ ...config, types: config.types.filter((t) => !isSpecifiedScalarType(t)) });
}

/**
 * @defer and @stream, as yoga's defer-stream plugin declares them (it adds them when absent), and
 * @live: in the printed schema too, so tools validating documents against it (codegen, manifests
 * checked at start) accept the incremental and live operations the gateway runs.
 */
function withDeliveryDirectives(built: GraphQLSchema): GraphQLSchema {
  const config = built.toConfig();
  return new GraphQLSchema({
    ...config,
    directives: [...config.directives, GraphQLDeferDirective, GraphQLStreamDirective, LiveDirective],
  });
}

export const schema = withInlineReads(
  lexicographicSortSchema(withDeliveryDirectives(withoutUnusedScalars(builder.toSchema()))),
);

// Connections hand PageInfo.hasNextPage over lazily (a getter that may return a promise: at
// first = 100 it costs an upstream call, made only when the field is selected). graphql-jit reads a
// field that has no resolver inline and does not await it, so this one gets graphql-js's own
// default resolver, which jit calls and awaits like any other.
const pageInfo = schema.getType('PageInfo');
if (!isObjectType(pageInfo)) throw new Error('the schema has no PageInfo object type');
const hasNextPage = pageInfo.getFields().hasNextPage;
if (!hasNextPage) throw new Error('PageInfo has no hasNextPage field');
hasNextPage.resolve = defaultFieldResolver;
