// Persisted operations: a manifest of known documents loaded at start (PERSISTED_OPERATIONS_FILE)
// and automatic persisted queries (./apq.ts), served by yoga's persisted-operations plugin. With
// PERSISTED_OPERATIONS_ONLY only the manifest's operations run, as production frontends expect. Every
// manifest document is parsed and validated at start, so a stale manifest stops the gateway with one
// line instead of failing requests. graphql-ws messages, which skip yoga's request hooks, are resolved
// by the same rules against the same manifest and APQ store (PersistedOperations.documentOf).
import { readFileSync } from 'node:fs';
import {
  type ExtractPersistedOperationId,
  usePersistedOperations,
} from '@graphql-yoga/plugin-persisted-operations';
import { type DocumentNode, type GraphQLError, type GraphQLSchema, parse, validate } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { ConfigError, type PersistedConfig } from '../../config';
import { type ApqStore, apqHashMismatch, apqHashOf, createApqStore, useApqRegistration } from './apq';

const FILE = 'PERSISTED_OPERATIONS_FILE';

/**
 * Reads a manifest: either a map `{ "<id>": "<document>" }` (GraphQL Code Generator's
 * persisted-documents.json, Relay's local persisted queries) or Apollo's
 * `{ "format": "apollo-persisted-query-manifest", "operations": [{ "id", "body" }] }`.
 */
function loadPersistedOperations(path: string, schema: GraphQLSchema): Map<string, DocumentNode> {
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
function operationIdOf(params: { readonly documentId?: unknown; readonly extensions?: unknown }) {
  if (typeof params.documentId === 'string') return params.documentId;
  return apqHashOf(params.extensions) ?? null;
}

const extractOperationId: ExtractPersistedOperationId = (params) => operationIdOf(params);

/** The request parameter names this plugin reads besides the standard four. */
export const PERSISTED_PARAM_NAMES = ['documentId'];

/** The refusals of the lookup, over HTTP and graphql-ws alike. */
const REFUSALS = {
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
};

const refused = (which: keyof typeof REFUSALS): GraphQLError =>
  createGraphQLError(REFUSALS[which].message, { extensions: REFUSALS[which].extensions });

/** Runs operations sent by id: from the manifest, else (APQ) from the store. */
function usePersistedOperationsManifest(
  operations: ReadonlyMap<string, DocumentNode>,
  only: boolean,
  apq?: ApqStore,
): Plugin {
  const lookup = usePersistedOperations({
    getPersistedOperation: (id) => operations.get(id) ?? apq?.get(id) ?? null,
    allowArbitraryOperations: !only,
    extractPersistedOperationId: extractOperationId,
    customErrors: REFUSALS,
  });
  return {
    ...lookup,
    // A request with neither a query nor an id is yoga's to refuse, with yoga's own status, unless only
    // persisted operations may run.
    onParams(payload) {
      if (
        !only &&
        !payload.params.query &&
        extractOperationId(payload.params, payload.request, payload.context) == null
      )
        return;
      return lookup.onParams?.(payload);
    },
  };
}

/** What a graphql-ws subscribe message asks for: a query, or an id (graphql-ws needs a query, so ''). */
interface SocketParams {
  readonly query?: string;
  readonly extensions?: Readonly<Record<string, unknown>> | null;
  readonly documentId?: unknown;
}

export interface PersistedOperations {
  /** yoga's plugins, in order: APQ registration, then the lookup by id; none when neither is set. */
  readonly plugins: Plugin[];
  /**
   * What a graphql-ws message runs under the plugins' rules, with the same manifest and APQ store: a
   * query text, a manifest document, or the refusal HTTP would give.
   */
  documentOf(params: SocketParams): string | DocumentNode | GraphQLError;
}

/**
 * From the config: APQ registration (unless PERSISTED_OPERATIONS_ONLY or APQ_MAX_ENTRIES=0), then
 * the lookup by id; none when there is neither a manifest nor APQ.
 */
export function persistedOperations(config: PersistedConfig, schema: GraphQLSchema): PersistedOperations {
  const manifest =
    config.file === undefined
      ? new Map<string, DocumentNode>()
      : loadPersistedOperations(config.file, schema);
  // Registering new queries would defeat the allow-list.
  const apq = !config.only && config.apqMaxEntries > 0 ? createApqStore(config.apqMaxEntries) : undefined;
  if (config.file === undefined && apq === undefined) {
    return { plugins: [], documentOf: (params) => params.query ?? '' };
  }
  const lookup = usePersistedOperationsManifest(manifest, config.only, apq);
  return {
    plugins: apq ? [useApqRegistration(apq), lookup] : [lookup],
    documentOf(params) {
      const query = params.query || undefined;
      const hash = apqHashOf(params.extensions);
      if (apq && hash !== undefined && query !== undefined && !apq.register(hash, query)) {
        return apqHashMismatch();
      }
      if (query !== undefined) return config.only ? refused('persistedQueryOnly') : query;
      const id = operationIdOf(params);
      if (id === null) return config.only ? refused('keyNotFound') : '';
      return manifest.get(id) ?? apq?.get(id) ?? refused('notFound');
    },
  };
}
