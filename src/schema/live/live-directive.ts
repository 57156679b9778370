// @live, the directive of @n1ru4l/graphql-live-query (its name, arguments and place: a query
// operation), declared with the contract's own description. gateway/live-queries/ keeps such a
// query live.
import { GraphQLLiveDirective } from '@n1ru4l/graphql-live-query';
import { GraphQLDirective } from 'graphql';

const { args } = GraphQLLiveDirective.toConfig();

export const LiveDirective = new GraphQLDirective({
  ...GraphQLLiveDirective.toConfig(),
  description:
    "Keeps a query live: after its first result, each time the account's shared observation changes\nwhat the result would be, the change is sent as a JSON Patch with the next revision. throttle is\nthe least time in milliseconds the client wants between two payloads.",
  args: Object.fromEntries(Object.entries(args).map(([name, { description: _, ...arg }]) => [name, arg])),
});
