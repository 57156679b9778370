// Variables are coerced once, by graphql-js's rules, before an operation is planned: whatever they
// refuse is BAD_USER_INPUT (HTTP 400 over HTTP) with no upstream call, for every argument of every
// root field, over POST, GET, SSE and graphql-ws. Before, `f: []` for an EndpointFilter was planned
// as nothing and then run by graphql-jit's looser coercion: 101 calls on a prediction of 0.
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../src/sandbox';
import { schema } from '../../src/schema';
import { KEY, type Stack, startStack } from '../support/stack';
import { run, wsClient } from '../support/websocket';
import { illTypedOperations } from './ill-typed-variables';

const operations = illTypedOperations(schema);

interface Body {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { upstreamCalls?: unknown };
}

/** A refusal of the variables: graphql-js's message, coded, no data, nothing called. */
function refused(body: Body, where: string) {
  expect(body.data, where).toBeUndefined();
  expect(body.errors?.length, where).toBeGreaterThan(0);
  for (const error of body.errors ?? []) {
    expect(error.extensions?.code, where).toBe('BAD_USER_INPUT');
    expect(error.message, where).toMatch(/^Variable "\$/);
  }
}

/** The one `next` event of a GraphQL-over-SSE answer, parsed. */
function sseResult(text: string): Body {
  const data = text
    .split('\n\n')
    .find((event) => /^event: next$/m.test(event))
    ?.match(/^data: (.*)$/m)?.[1];
  return JSON.parse(data ?? '{}') as Body;
}

describe('ill-typed variables, for every argument of every root field', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: demoData({ tunnels: 20 }) }, websocket: true });
  });
  afterAll(() => stack.close());

  it(`covers every root field with arguments and every kind of refusal (${operations.length} operations)`, () => {
    const kinds = new Set(operations.map((o) => o.what.split(/ (?:the|in) /)[0]));
    expect([...kinds].sort()).toEqual([
      'a number for',
      'a string for',
      'an array for',
      'an object for',
      'an unknown input field',
      'an unknown value of',
      'null for',
      'null inside',
    ]);
    const fields = new Set(operations.map((o) => o.query.match(/\{ (\w+)\(/)?.[1]));
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()])
      for (const field of Object.values(root?.getFields() ?? {}))
        if (field.args.length > 0) expect(fields.has(field.name), field.name).toBe(true);
  });

  it('POST and GET: 400, BAD_USER_INPUT, predicted and made 0', async () => {
    stack.sandbox.resetCalls();
    for (const { operation, query, variables, what } of operations.filter(
      (o) => o.operation !== 'subscription',
    )) {
      const where = `${what}: ${query} ${JSON.stringify(variables)}`;
      const posted = await stack.gql(query, variables);
      expect(posted.status, where).toBe(400);
      expect(posted.upstreamCalls, where).toEqual({ predicted: 0, made: 0 });
      refused(posted.body, where);
      if (operation !== 'query') continue;
      const got = await stack.raw({
        method: 'GET',
        search: `?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`,
        headers: { authorization: `Bearer ${KEY}`, accept: 'application/graphql-response+json' },
      });
      expect(got.status, where).toBe(400);
      refused(JSON.parse(got.text) as Body, where);
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('SSE (queries and subscriptions): BAD_USER_INPUT, no call, no subscription left', async () => {
    stack.sandbox.resetCalls();
    for (const { operation, query, variables, what } of operations.filter(
      (o) => o.operation !== 'mutation',
    )) {
      const where = `${what}: ${query} ${JSON.stringify(variables)}`;
      const answer = await stack.raw({
        method: 'POST',
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({ query, variables }),
      });
      expect(answer.status, where).toBeLessThan(500);
      refused(sseResult(answer.text), `${operation} ${where}`);
    }
    expect(stack.sandbox.calls()).toBe(0);
    expect(stack.gateway.live.count()).toBe(0);
  });

  it('graphql-ws: BAD_USER_INPUT for each, on one socket, no call', async () => {
    stack.sandbox.resetCalls();
    const client = wsClient(stack.wsUrl, { key: KEY });
    try {
      for (const { query, variables, what } of operations) {
        const where = `${what}: ${query} ${JSON.stringify(variables)}`;
        const outcome = await run(client, query, variables);
        const errors = (outcome.results[0]?.errors ?? outcome.error) as Body['errors'];
        expect(
          outcome.results.every((r) => r.data === undefined),
          where,
        ).toBe(true);
        refused({ errors }, where);
      }
    } finally {
      await client.dispose();
    }
    expect(stack.sandbox.calls()).toBe(0);
    expect(stack.gateway.live.count()).toBe(0);
  });

  it('the same operations with well-typed variables run (the refusals are the variables)', async () => {
    const query =
      'query Op($filter: EndpointFilter, $ids: [ID!]!) { endpoints(first: 1, filter: $filter) { nodes { id } } nodes(ids: $ids) { id } }';
    expect(parse(query)).toBeDefined();
    const ids = stack.sandbox
      .listEndpoints(KEY)
      .slice(0, 1)
      .map((e) => e.id);
    const ok = await stack.gql(query, { filter: { types: ['CLOUD'] }, ids });
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    const bad = await stack.gql(query, { filter: [], ids });
    expect(bad.status).toBe(400);
    expect(bad.upstreamCalls).toEqual({ predicted: 0, made: 0 });
  });
});
