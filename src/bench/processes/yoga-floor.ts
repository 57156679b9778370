// The benchmark's floor: a bare graphql-yoga server (the gateway's versions of yoga and graphql),
// a one-field schema, no plugins, on node:http. What yoga itself costs per request on this machine,
// under the same load as the gateway rows; every row's CPU per operation is a multiple of it.
// `--latency-ms N` (the 20 ms rows' floor): the one resolver waits N ms on a timer before it answers,
// so the floor faces the upstream latency the gateway faces, with the same connections (no call is
// made); without it (the 0 ms floor) it answers at once.
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createSchema, createYoga } from 'graphql-yoga';

const { values } = parseArgs({ options: { port: { type: 'string' }, 'latency-ms': { type: 'string' } } });
const latencyMs = Number(values['latency-ms'] ?? 0);

const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { hello: String! }',
    resolvers: {
      Query: { hello: latencyMs > 0 ? () => sleep(latencyMs, 'world') : () => 'world' },
    },
  }),
  graphiql: false,
  landingPage: false,
  logging: false,
});

const server = createServer(yoga);
server.listen(Number(values.port), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
