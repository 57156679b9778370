// Persisted operations: a manifest of known documents loaded at start (PERSISTED_OPERATIONS_FILE),
// served by yoga's persisted-operations plugin. With PERSISTED_OPERATIONS_ONLY, any other document
// is refused, as production frontends expect. Every document is parsed and validated against the
// schema at start, so a stale manifest stops the gateway with one line instead of failing requests.
import { readFileSync } from 'node:fs';
import {
  type ExtractPersistedOperationId,
  usePersistedOperations,
} from '@graphql-yoga/plugin-persisted-operations';
import { type DocumentNode, type GraphQLSchema, parse, validate } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ConfigError, type PersistedConfig } from '../config';

const FILE = 'PERSISTED_OPERATIONS_FILE';

/**
 * Reads a manifest: either a map `{ "<id>": "<document>" }` (GraphQL Code Generator's
 * persisted-documents.json, Relay's local persisted queries) or Apollo's
 * `{ "format": "apollo-persisted-query-manifest", "operations": [{ "id", "body" }] }`.
 */
export function loadPersistedOperations(path: string, schema: GraphQLSchema): Map<string, DocumentNode> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? 'not valid JSON';
    throw new ConfigError(`${FILE}: cannot read "${path}" (${why})`);
  }
  const entries = manifestEntries(json, path);
  const operations = new Map<string, DocumentNode>();
  for (const [id, body] of entries) {
    let document: DocumentNode;
    try {
      document = parse(body);
    } catch {
      throw new ConfigError(`${FILE}: the operation "${id}" does not parse`);
    }
    const errors = validate(schema, document);
    if (errors.length > 0) {
      throw new ConfigError(`${FILE}: the operation "${id}" is not valid: ${errors[0]?.message}`);
    }
    operations.set(id, document);
  }
  return operations;
}

function manifestEntries(json: unknown, path: string): [string, string][] {
  const bad = (): never => {
    throw new ConfigError(
      `${FILE}: "${path}" is neither a {"id": "document"} map nor an Apollo persisted query manifest`,
    );
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return bad();
  const record = json as Record<string, unknown>;
  if (record.format === 'apollo-persisted-query-manifest') {
    if (!Array.isArray(record.operations)) return bad();
    return record.operations.map((op: unknown) => {
      const { id, body } = (op ?? {}) as Record<string, unknown>;
      return typeof id === 'string' && typeof body === 'string' ? [id, body] : bad();
    });
  }
  return Object.entries(record).map(([id, body]) => (typeof body === 'string' ? [id, body] : bad()));
}

/** Apollo's `extensions.persistedQuery.sha256Hash`, or the GraphQL-over-HTTP `documentId`. */
export const extractOperationId: ExtractPersistedOperationId = (params) => {
  const documentId = (params as { documentId?: unknown }).documentId;
  if (typeof documentId === 'string') return documentId;
  const persisted = (params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } })
    ?.persistedQuery;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : null;
};

/** The request parameter names this plugin reads besides the standard four. */
export const PERSISTED_PARAM_NAMES = ['documentId'];

export function usePersistedOperationsManifest(
  operations: ReadonlyMap<string, DocumentNode>,
  only: boolean,
): Plugin {
  return usePersistedOperations({
    getPersistedOperation: (id) => operations.get(id) ?? null,
    allowArbitraryOperations: !only,
    extractPersistedOperationId: extractOperationId,
    customErrors: {
      // The message Apollo Client and urql look for.
      notFound: {
        message: 'PersistedQueryNotFound',
        extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
      },
      persistedQueryOnly: {
        message: 'Only persisted operations are accepted: send their id, not a query.',
        extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
      },
      keyNotFound: {
        message: 'Send a query, or a persisted operation id (documentId or extensions.persistedQuery).',
        extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
      },
    },
  });
}

/** The plugin from the config, or undefined when no manifest is configured. */
export function persistedOperationsPlugin(
  config: PersistedConfig,
  schema: GraphQLSchema,
): Plugin | undefined {
  if (config.file === undefined) return undefined;
  return usePersistedOperationsManifest(loadPersistedOperations(config.file, schema), config.only);
}
