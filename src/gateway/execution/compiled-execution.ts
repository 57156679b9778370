// Queries run as JavaScript that graphql-jit compiles once per document and operation name,
// instead of through graphql-js's interpreter: less CPU per operation, within bounds on what
// compiling may cost (./compiled-operations.ts). Variables reach it only once graphql-js's own coercion has accepted
// them (demand control refuses the rest before planning). What clients see stays
// graphql-js's: errors are rebuilt as graphql-js's own (see located), and anything graphql-jit
// cannot compile runs interpreted. Mutations always run interpreted: graphql-jit does not stop
// after a failed non-null mutation field, so it would send the later writes upstream. So do
// operations with @defer or @stream: graphql-jit ignores them and would answer in one payload;
// yoga's executor (@graphql-tools/executor) delivers them incrementally.
import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  type Source,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { CompiledOperations } from './compiled-operations';

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

/** graphql-jit's compiled query, or undefined where it cannot compile (graphql-js runs it, and answers as it would anyway). */
function compile(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string,
): CompiledQuery | undefined {
  try {
    const result = compileQuery(schema, document, operationName);
    return isCompiledQuery(result) ? result : undefined;
  } catch {
    return undefined;
  }
}

export function useCompiledExecution(): Plugin {
  const operations = new CompiledOperations(compile);
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        const compiled = operations.for(args.schema, args.document, args.operationName ?? undefined);
        if (compiled === undefined) return executeFn(args);
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
