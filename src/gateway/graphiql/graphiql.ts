// GraphiQL opens with one tab per example operation (./examples.ts), the first one active with its
// variables (./example-ids.ts): real ids of the demo data on the embedded stand-in, where the
// gateway holds the stand-in's key and no header is needed; placeholders elsewhere, plus how to add
// the Authorization header (as comments: nothing malformed is sent). Off in production. The page itself is built by
// ./graphiql-page.ts (no CDN) and served by ./graphiql-cache.ts (compressed once, with an ETag).
import type { GraphiQLOptions } from 'graphql-yoga';
import type { Config } from '../../config';
import { type ExampleIds, PLACEHOLDER_IDS } from './example-ids';
import { EXAMPLE_OPERATIONS, type ExampleOperation } from './examples';

/** One GraphiQL tab: what the page opens with. */
interface GraphiQLTab {
  readonly query: string;
  readonly variables: string;
  readonly headers?: string;
}

/** Yoga's options plus `variables`, which its page passes to GraphiQL as the initial variables. */
export type PageOptions = GraphiQLOptions & { readonly variables?: string };

/** What the Authorization header must carry, or undefined when the gateway needs none. */
function headerHint(config: Config, onStandIn: boolean): string | undefined {
  if (onStandIn) return undefined;
  if (config.upstream.apiKey === undefined) return 'your ngrok API key';
  return config.access.gatewayTokens.length > 0 ? 'a gateway token' : undefined;
}

/**
 * The headers editor's text: how to add the header, as comments (GraphiQL reads the editor as JSON
 * with comments), so nothing malformed is sent: the schema loads with no key (introspection needs
 * none) and the first run that needs one answers UNAUTHENTICATED, saying so.
 */
function headersHint(what: string): string {
  return [
    '{',
    `  // Runs need ${what}: remove the two slashes below and put it after "Bearer ".`,
    '  // "Authorization": "Bearer "',
    '}',
  ].join('\n');
}

/** The tabs GraphiQL opens with, in order. */
function exampleTabs(
  config: Config,
  standInIds?: ExampleIds,
  operations: readonly ExampleOperation[] = EXAMPLE_OPERATIONS,
): GraphiQLTab[] {
  const hint = headerHint(config, standInIds !== undefined);
  const headers = hint === undefined ? undefined : headersHint(hint);
  return operations.map((op) => ({
    query: op.document,
    variables: JSON.stringify(op.variables(standInIds ?? PLACEHOLDER_IDS), null, 2),
    ...(headers === undefined ? {} : { headers }),
  }));
}

/**
 * Yoga's GraphiQL options: false in production, else tabs with the example operations.
 * `standInIds`: the gateway runs on the embedded stand-in and these ids exist there.
 */
export function graphiqlOptions(config: Config, standInIds?: ExampleIds): PageOptions | false {
  if (config.server.nodeEnv === 'production') return false;
  const tabs = exampleTabs(config, standInIds);
  const first = tabs[0];
  return {
    title: 'ngrok GraphQL gateway',
    // The editors start from query/variables/headers (the first tab's), not from the tab itself:
    // without `variables` the first tab opens with an empty variables editor.
    ...(first ? { defaultQuery: first.query, defaultTabs: tabs, variables: first.variables } : {}),
    ...(first?.headers === undefined ? {} : { headers: first.headers }),
    defaultEditorToolsVisibility: 'variables',
  };
}
