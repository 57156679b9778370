// GraphQL Code Generator: typed documents for the example operations, for a fetch client
// (test/tooling/client-example.ts). Run from the repository root: `npm run codegen`.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  // The /* GraphQL */ templates of the example operations.
  documents: 'src/gateway/graphiql/*examples.ts',
  generates: {
    'test/tooling/__generated__/': {
      preset: 'client',
      presetConfig: {
        fragmentMasking: false,
        // persisted-documents.json: a manifest the gateway loads with PERSISTED_OPERATIONS_FILE.
        persistedDocuments: { mode: 'embedHashInDocument', hashAlgorithm: 'sha256' },
      },
      config: {
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string' },
      },
    },
  },
  silent: true,
};

export default config;
