// The execution room's front: how an operation runs (graphql-jit, yoga's bounded parse and
// validation cache) and how its errors leave (masked, coded). app.ts takes these from here.
export { useCompiledExecution } from './compiled-execution';
export { documentCacheOptions } from './document-cache';
export { useErrorCodes } from './error-codes';
export { createMaskError, toGraphQLError } from './graphql-errors';
export { useIncrementalErrorMasking } from './incremental-error-masking';
