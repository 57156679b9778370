// GraphiQL opens with one tab per example operation (test/operations/*.graphql, read at start),
// their variables filled in: with real ids of the demo data on the embedded stand-in, where the
// gateway holds the stand-in's key and no header is needed; with placeholders elsewhere, plus the
// Authorization header to fill in. GraphiQL is off in production, where test/ is not shipped.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Kind, parse } from 'graphql';
import type { GraphiQLOptions } from 'graphql-yoga';
import type { Config } from '../config';
import type { AccountSeed } from '../sandbox';

/** The tab order; other files in the folder follow alphabetically. */
const ORDER = ['TunnelsPage', 'OneTunnel', 'BackendModule', 'ReplaceBackend', 'DeleteBackend'];

export interface ExampleOperation {
  readonly name: string;
  readonly document: string;
  readonly variableNames: readonly string[];
}

/** Ids the examples' variables are filled with. */
export interface ExampleIds {
  readonly tunnelId: string;
  readonly edgeId: string;
  readonly routeId: string;
  readonly backendId: string;
}

const PLACEHOLDERS: ExampleIds = {
  tunnelId: 'tn_…',
  edgeId: 'edghts_…',
  routeId: 'edghtsrt_…',
  backendId: 'bkdtg_…',
};

/** The folder of the example operations, from src/gateway (tsx, tests) or from dist (a build). */
export function operationsFolder(): string | undefined {
  return ['../../test/operations/', '../test/operations/']
    .map((rel) => fileURLToPath(new URL(rel, import.meta.url)))
    .find((dir) => existsSync(dir));
}

export function readExampleOperations(folder = operationsFolder()): ExampleOperation[] {
  if (folder === undefined) return [];
  const rank = (name: string) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.graphql'))
    .map((file) => {
      const document = readFileSync(`${folder}/${file}`, 'utf8');
      const operation = parse(document).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
      return {
        name: operation?.name?.value ?? file.replace(/\.graphql$/, ''),
        document,
        variableNames: operation?.variableDefinitions?.map((v) => v.variable.name.value) ?? [],
      };
    })
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/** Ids from the stand-in's demo data: a tunnel, and a route with a module plus another backend for it. */
export function exampleIdsFrom(seed: AccountSeed): ExampleIds | undefined {
  const tunnelId = seed.tunnels?.[0]?.id;
  for (const edge of seed.edges ?? []) {
    const route = edge.routes.find((r) => r.backend !== undefined);
    const backendId = seed.backends?.find((b) => b !== route?.backend?.backendId);
    if (tunnelId && route && backendId) return { tunnelId, edgeId: edge.id, routeId: route.id, backendId };
  }
  return undefined;
}

function variablesOf(operation: ExampleOperation, ids: ExampleIds): string {
  const values: Record<string, unknown> = {
    first: 5,
    id: ids.tunnelId,
    edgeId: ids.edgeId,
    routeId: ids.routeId,
    backendId: ids.backendId,
    enabled: true,
  };
  const variables = Object.fromEntries(
    operation.variableNames.filter((n) => n in values).map((n) => [n, values[n]]),
  );
  return JSON.stringify(variables, null, 2);
}

/** The Authorization header a person must add, or undefined when the gateway needs none. */
function headerHint(config: Config, onStandIn: boolean): string | undefined {
  if (onStandIn) return undefined;
  if (config.upstream.apiKey === undefined) return 'Bearer <your ngrok API key>';
  return config.access.gatewayTokens.length > 0 ? 'Bearer <a gateway token>' : undefined;
}

/**
 * Yoga's GraphiQL options: false in production, else tabs with the example operations.
 * `standInIds`: the gateway runs on the embedded stand-in and these ids exist there.
 */
export function graphiqlOptions(
  config: Config,
  standInIds?: ExampleIds,
  operations = readExampleOperations(),
): GraphiQLOptions | false {
  if (config.server.nodeEnv === 'production') return false;
  const hint = headerHint(config, standInIds !== undefined);
  const headers = hint === undefined ? undefined : JSON.stringify({ Authorization: hint }, null, 2);
  return {
    title: 'ngrok GraphQL gateway',
    ...(operations.length > 0
      ? {
          defaultQuery: operations[0]?.document,
          defaultTabs: operations.map((op) => ({
            query: op.document,
            variables: variablesOf(op, standInIds ?? PLACEHOLDERS),
            ...(headers === undefined ? {} : { headers }),
          })),
        }
      : {}),
    ...(headers === undefined ? {} : { headers }),
    defaultEditorToolsVisibility: 'variables',
  };
}
