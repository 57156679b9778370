// The GraphiQL room's front: the page's options and tabs (graphiql.ts), its offline page built and
// served once with an ETag (graphiql-page.ts, graphiql-cache.ts), and the example operations it opens
// with (examples.ts, graph-examples.ts, live-examples.ts), filled with the ids of example-ids.ts.

export { type ExampleIds, exampleIdsFrom, /** @internal test seam */ PLACEHOLDER_IDS } from './example-ids';
export { EXAMPLE_OPERATIONS, /** @internal test seam */ exampleOperation } from './examples';
export { /** @internal test seam */ GRAPH_EXAMPLES } from './graph-examples';
export { graphiqlOptions } from './graphiql';
export { createGraphiQLServing, useGraphiQLCache } from './graphiql-cache';
export { /** @internal test seam */ LIVE_EXAMPLES } from './live-examples';
