// What GraphQL tools see: an introspection query over HTTP rebuilds exactly schema/schema.graphql,
// and .graphqlrc.yml (graphql-config, read by editors and generators) finds that schema and the
// example operations, which validate against it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CodeFileLoader } from '@graphql-tools/code-file-loader';
import {
  buildClientSchema,
  getIntrospectionQuery,
  type IntrospectionQuery,
  Kind,
  lexicographicSortSchema,
  printSchema,
  validate,
} from 'graphql';
import { type GraphQLExtensionDeclaration, loadConfig } from 'graphql-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_OPERATIONS, GRAPH_EXAMPLES, LIVE_EXAMPLES } from '../../src/gateway/graphiql';
import { type Stack, startStack } from '../support/stack';

const root = fileURLToPath(new URL('../../', import.meta.url));
const schemaFile = readFileSync(`${root}schema/schema.graphql`, 'utf8');

describe('introspection over HTTP', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('rebuilds a schema identical to schema/schema.graphql, descriptions included, with no credential', async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      inputValueDeprecation: true,
    });
    const { status, body } = await stack.gql(query, undefined, { key: null });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const rebuilt = buildClientSchema(body.data as unknown as IntrospectionQuery);
    expect(`${printSchema(lexicographicSortSchema(rebuilt))}\n`).toBe(schemaFile);
    expect(stack.sandbox.calls()).toBe(0);
  });
});

describe('.graphqlrc.yml', () => {
  it('points tools at schema/schema.graphql and the example operations, which are valid', async () => {
    // Documents in a .ts file are plucked from /* GraphQL */ templates, as code generators and
    // the GraphQL language server do; graphql-config reads only .graphql files unless told.
    const pluck: GraphQLExtensionDeclaration = (api) => {
      api.loaders.documents.register(new CodeFileLoader());
      return { name: 'pluck' };
    };
    const config = await loadConfig({
      rootDir: root,
      throwOnMissing: true,
      throwOnEmpty: true,
      extensions: [pluck],
    });
    const project = config?.getDefault();
    if (!project) throw new Error('no graphql-config project');
    expect(project.schema).toBe('schema/schema.graphql');
    const schema = await project.getSchema();
    expect(`${printSchema(lexicographicSortSchema(schema))}\n`).toBe(schemaFile);
    const documents = await project.getDocuments();
    expect(documents.map((d) => d.location?.replace(root, ''))).toEqual(
      EXAMPLE_OPERATIONS.map(
        (o) =>
          `src/gateway/graphiql/${LIVE_EXAMPLES.some((l) => l.name === o.name) ? 'live-' : GRAPH_EXAMPLES.some((g) => g.name === o.name) ? 'graph-' : ''}examples.ts`,
      ),
    );
    const names = documents.map((d) =>
      d.document?.definitions.map((def) => (def.kind === Kind.OPERATION_DEFINITION ? def.name?.value : '?')),
    );
    expect(names.flat()).toEqual(EXAMPLE_OPERATIONS.map((o) => o.name));
    for (const document of documents) {
      if (!document.document) throw new Error(`${document.location} did not parse`);
      expect(validate(schema, document.document), document.location).toEqual([]);
    }
  });
});
