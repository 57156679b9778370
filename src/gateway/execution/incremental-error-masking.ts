// yoga masks the errors at the top of each payload; those of the payloads after the first (@defer,
// @stream) sit in `incremental` and would leave unmasked, with no code, without this plugin.
import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import { sanitized } from './graphql-errors';

/** One deferred or streamed payload's part (@defer, @stream), as far as its errors go. */
interface IncrementalPart {
  readonly errors?: readonly unknown[];
}

/**
 * Errors of the payloads after the first (@defer, @stream), masked and coded like every other:
 * yoga's masking reads only `errors` at the top of each payload, and theirs sit in `incremental`.
 */
export function useIncrementalErrorMasking(maskError: (error: unknown) => Error): Plugin {
  const masked = (e: unknown) => {
    const error = maskError(e);
    return error instanceof GraphQLError ? sanitized(error) : error;
  };
  return {
    onExecute: () => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
          const parts = (result as { incremental?: readonly IncrementalPart[] }).incremental;
          if (!parts?.some((p) => p.errors?.length)) return;
          const incremental = parts.map((p) =>
            p.errors?.length ? { ...p, errors: p.errors.map(masked) } : p,
          );
          setResult({ ...result, incremental } as typeof result);
        }),
    }),
  };
}
