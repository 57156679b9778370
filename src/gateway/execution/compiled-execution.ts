// Queries run as JavaScript that graphql-jit compiles once per document and operation name,
// instead of through graphql-js's interpreter: less CPU per operation. What clients see stays
// graphql-js's: errors are rebuilt as graphql-js's own (see located), and anything graphql-jit
// cannot compile runs interpreted. Mutations always run interpreted: graphql-jit does not stop
// after a failed non-null mutation field, so it would send the later writes upstream. So do
// operations with @defer or @stream: graphql-jit ignores them and would answer in one payload;
// yoga's executor (@graphql-tools/executor) delivers them incrementally.
import {
  BREAK,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  type Source,
  visit,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

const INTERPRETED = 'interpreted';
type Compiled = CompiledQuery | typeof INTERPRETED;

/** graphql-js throws this one as a plain Error, which the error mask hides; graphql-jit makes it a GraphQLError. */
const NULL_VIOLATION = 'Cannot return null for non-nullable field ';

/** Offset of each line's first character in `body`, by GraphQL's own line terminators. */
function lineStarts(body: string): number[] {
  const starts = [0];
  for (const match of body.matchAll(/\r\n|[\n\r]/g)) starts.push(match.index + match[0].length);
  return starts;
}

/**
 * graphql-jit's errors carry only locations, which yoga drops when it serialises them (it rebuilds
 * every error from its nodes, or its source and positions). This gives them source and positions,
 * and the original error graphql-js would have given them, so masking treats them alike.
 */
function located(error: GraphQLError, source: Source | undefined, starts: readonly number[]): GraphQLError {
  if (error.nodes !== undefined || error.positions !== undefined) return error;
  const originalError =
    error.originalError ?? (error.message.startsWith(NULL_VIOLATION) ? new Error(error.message) : undefined);
  const positions =
    source && error.locations
      ? error.locations.map(({ line, column }) => (starts[line - 1] ?? 0) + column - 1)
      : undefined;
  return new GraphQLError(error.message, {
    source: positions ? source : undefined,
    positions,
    path: error.path,
    originalError,
  });
}

function withLocatedErrors(result: ExecutionResult, document: DocumentNode): ExecutionResult {
  if (!result.errors?.length) return result;
  const source = document.loc?.source;
  const starts = lineStarts(source?.body ?? '');
  return { ...result, errors: result.errors.map((e) => located(e, source, starts)) };
}

/** True when the document asks for incremental delivery anywhere (its fragments included). */
function isIncremental(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'defer' && node.name.value !== 'stream') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Compiled {
  try {
    const result = compileQuery(schema, document, operationName);
    return isCompiledQuery(result) ? result : INTERPRETED;
  } catch {
    // graphql-js runs it, and answers as it would have anyway.
    return INTERPRETED;
  }
}

export function useCompiledExecution(): Plugin {
  // Held as long as the document is: yoga's parse cache keeps one per distinct query text (an LRU
  // of 1024, an hour at most), so compiled operations are bounded by it.
  const cache = new WeakMap<DocumentNode, Map<string | undefined, Compiled>>();

  function compiledFor(args: ExecutionArgs): Compiled {
    const operationName = args.operationName ?? undefined;
    let byName = cache.get(args.document);
    if (!byName) {
      byName = new Map();
      cache.set(args.document, byName);
    }
    let compiled = byName.get(operationName);
    if (compiled === undefined) {
      const isQuery = getOperationAST(args.document, operationName)?.operation === 'query';
      compiled =
        isQuery && !isIncremental(args.document)
          ? compile(args.schema, args.document, operationName)
          : INTERPRETED;
      byName.set(operationName, compiled);
    }
    return compiled;
  }

  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        const compiled = compiledFor(args);
        if (compiled === INTERPRETED) return executeFn(args);
        const result = compiled.query(args.rootValue, args.contextValue, args.variableValues);
        // No data: the variables did not fit, and nothing ran. The interpreter answers that request
        // error as yoga does (HTTP 400), at no cost.
        const answer = (r: ExecutionResult) =>
          'data' in r ? withLocatedErrors(r, args.document) : executeFn(args);
        return result instanceof Promise ? result.then(answer) : answer(result);
      });
    },
  };
}
