// Operations run compiled (graphql-jit, src/gateway/execution/compiled-execution.ts); clients must not be able to
// tell: the same data, and the same errors with the same messages, locations, paths and codes, as
// graphql-js's interpreter gives, for every kind of outcome a field can have.
import {
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  graphql,
} from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors';
import { createMaskError, useCompiledExecution } from '../../src/gateway/execution';

const Item = new GraphQLObjectType({
  name: 'Item',
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    lazy: { type: GraphQLString, resolve: async (item: { name: string }) => `lazy ${item.name}` },
  },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      fine: { type: GraphQLString, resolve: () => 'fine' },
      later: { type: GraphQLString, resolve: async () => 'later' },
      ours: {
        type: GraphQLString,
        resolve: () => {
          throw new GatewayError('RATE_LIMITED', 'Slow down.', { retryAfter: 3 });
        },
      },
      unexpected: {
        type: GraphQLString,
        resolve: () => {
          throw new Error('secret internals');
        },
      },
      nullViolation: { type: new GraphQLNonNull(GraphQLString), resolve: () => null },
      items: {
        type: new GraphQLList(Item),
        resolve: () => [{ name: 'a' }, { name: null }, { name: 'c' }],
      },
      echo: { type: GraphQLString, args: { text: { type: GraphQLString } }, resolve: (_, a) => a.text },
    },
  }),
});

function gateway(plugins: Plugin[]) {
  const yoga = createYoga({
    schema,
    plugins,
    logging: false,
    maskedErrors: { maskError: createMaskError({ error: () => {} }) },
  });
  return async (body: Record<string, unknown>) => {
    const response = await yoga.fetch('http://gateway/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  };
}

const interpreted = gateway([]);
const compiled = gateway([useCompiledExecution()]);

const cases: [string, Record<string, unknown>][] = [
  ['plain and async fields', { query: '{ fine later }' }],
  ['a gateway error keeps its code and extensions', { query: '{\n  fine\n  ours\n}' }],
  ['an unexpected error is masked', { query: '{ unexpected fine }' }],
  ['a null in a non-null field', { query: '{ fine\n nullViolation }' }],
  ['a null inside a list item', { query: '{ items { name lazy } }' }],
  ['variables', { query: 'query($t: String) { echo(text: $t) }', variables: { t: 'hi' } }],
  [
    'one of two operations, by name',
    { query: 'query A { fine } query B { later echo(text: "b") }', operationName: 'B' },
  ],
];

describe('compiled execution answers as graphql-js does', () => {
  for (const [name, body] of cases) {
    it(name, async () => {
      const expected = await interpreted(body);
      // The first run is interpreted, the second compiles and runs compiled: both must match.
      expect(await compiled(body)).toEqual(expected);
      expect(await compiled(body)).toEqual(expected);
    });
  }

  it('the cases above do produce errors with locations (they test something)', async () => {
    const { json } = await interpreted({ query: '{ fine\n nullViolation }' });
    expect(json).toEqual({
      data: null,
      errors: [
        {
          message: 'Unexpected error.',
          locations: [{ line: 2, column: 2 }],
          path: ['nullViolation'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ],
    });
    expect((await interpreted({ query: '{ ours }' })).json.errors[0].extensions).toEqual({
      code: 'RATE_LIMITED',
      retryAfter: 3,
    });
  });

  it('runs each operation of a document by its own name, whichever ran first', async () => {
    const query = 'query A { fine } query B { later }';
    expect((await compiled({ query, operationName: 'A' })).json).toEqual({ data: { fine: 'fine' } });
    expect((await compiled({ query, operationName: 'B' })).json).toEqual({ data: { later: 'later' } });
    expect((await compiled({ query, operationName: 'A' })).json).toEqual({ data: { fine: 'fine' } });
  });
});

describe('mutations keep graphql-js serial semantics', () => {
  let writes: string[] = [];
  const write = (name: string, fail: boolean) => async () => {
    writes.push(name);
    if (fail) throw new GatewayError('UPSTREAM_UNAVAILABLE', 'The ngrok API is unavailable.');
    return name;
  };
  const mutationSchema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { fine: { type: GraphQLString } } }),
    mutation: new GraphQLObjectType({
      name: 'Mutation',
      fields: {
        failRequired: { type: new GraphQLNonNull(GraphQLString), resolve: write('failRequired', true) },
        failOptional: { type: GraphQLString, resolve: write('failOptional', true) },
        later: { type: GraphQLString, resolve: write('later', false) },
      },
    }),
  });
  const run = (plugins: Plugin[]) => {
    const yoga = createYoga({
      schema: mutationSchema,
      plugins,
      logging: false,
      maskedErrors: { maskError: createMaskError({ error: () => {} }) },
    });
    return async (query: string) => {
      writes = [];
      const response = await yoga.fetch('http://gateway/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      return { json: await response.json(), writes };
    };
  };
  const interpretedRun = run([]);
  const compiledRun = run([useCompiledExecution()]);
  /** graphql-js itself, without yoga: the reference. */
  const reference = async (source: string) => {
    writes = [];
    const result = await graphql({ schema: mutationSchema, source });
    return { data: result.data, writes };
  };

  it('a failed non-null field: data null, the later field never runs (graphql-js)', async () => {
    const query = 'mutation { failRequired later }';
    expect(await reference(query)).toEqual({ data: null, writes: ['failRequired'] });
    const expected = await interpretedRun(query);
    expect(expected.writes).toEqual(['failRequired']);
    expect(expected.json.data).toBeNull();
    expect(await compiledRun(query)).toEqual(expected);
    expect(await compiledRun(query)).toEqual(expected);
  });

  it('a failed nullable field: null, and the later field still runs (graphql-js)', async () => {
    const query = 'mutation { failOptional later }';
    expect(await reference(query)).toEqual({
      data: { failOptional: null, later: 'later' },
      writes: ['failOptional', 'later'],
    });
    const expected = await interpretedRun(query);
    expect(expected.writes).toEqual(['failOptional', 'later']);
    expect(expected.json.data).toEqual({ failOptional: null, later: 'later' });
    expect(await compiledRun(query)).toEqual(expected);
    expect(await compiledRun(query)).toEqual(expected);
  });
});
