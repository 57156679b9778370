// The benchmark's floor: a bare graphql-yoga server (the gateway's versions of yoga and graphql),
// a one-field schema, no plugins, on node:http. What yoga itself costs per request on this machine,
// under the same load as the gateway rows; every row's CPU per operation is a multiple of it.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createSchema, createYoga } from 'graphql-yoga';

const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { hello: String! }',
    resolvers: { Query: { hello: () => 'world' } },
  }),
  graphiql: false,
  landingPage: false,
  logging: false,
});

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const server = createServer(yoga);
server.listen(Number(values.port), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
