// The endpoint operations seen from outside: /metrics counts their upstream calls by route, method
// and status, and each request writes one log line with its operation, upstream calls and budget
// standing. No key, no endpoint data and no upstream text (the 400's msg included) in either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { sample, scrape } from '../support/prometheus';
import { dataOf, KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(4, { seed: 81, kind: 'agent' });
const agentEndpoint = `ep_${tunnels[0]?.id.slice(3)}`;
const POLICY = 'on_http_request:\n  - actions:\n      - type: deny\n';
const URL_MADE = 'https://observed-endpoint.example.com';

const OPERATIONS = {
  list: ['query EndpointsPage { endpoints(first: 3) { nodes { id url } } }', {}],
  byId: ['query OneEndpoint($id: ID!) { endpoint(id: $id) { id url } }', { id: agentEndpoint }],
  create: [
    `mutation Create($input: CreateCloudEndpointInput!) { createCloudEndpoint(input: $input) {
      __typename ... on CreateCloudEndpointPayload { endpoint { id } } } }`,
    { input: { url: URL_MADE, trafficPolicy: POLICY, description: 'observed' } },
  ],
  update: [
    `mutation Update($input: UpdateEndpointInput!) { updateEndpoint(input: $input) {
      __typename ... on InvalidInputError { message field } } }`,
    {},
  ],
  remove: ['mutation Remove($id: ID!) { deleteEndpoint(input: { id: $id }) { __typename } }', {}],
  join: [
    'query Joined { tunnels(first: 4) { nodes { endpoint { node { ... on Endpoint { url } } } } } }',
    {},
  ],
} as const;

describe('endpoint operations in /metrics and the request log', () => {
  let stack: Stack;
  let made = '';
  let refusal = '';
  /** The answers, by request id. */
  const answers = new Map<string, unknown>();

  const send = async (reqId: string, [query, variables]: readonly [string, object], extra = {}) => {
    const { body } = await stack.gql(
      query,
      { ...variables, ...extra },
      { headers: { 'x-request-id': reqId } },
    );
    answers.set(reqId, body);
    return body;
  };

  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '100' },
    });
    // A known sequence: two reads, five writes (one refused with a 400, one a 404), one join.
    await send('list', OPERATIONS.list);
    await send('by-id', OPERATIONS.byId);
    const created = await send('create', OPERATIONS.create);
    made = dataOf<{ endpoint: { id: string } }>(created, 'createCloudEndpoint').endpoint.id;
    await send('update', OPERATIONS.update, {
      input: { id: made, description: 'described-by-the-observability-test' },
    });
    const refused = await send('update-agent', OPERATIONS.update, {
      input: { id: agentEndpoint, description: 'x' },
    });
    refusal = dataOf<{ message: string }>(refused, 'updateEndpoint').message;
    await send('delete', OPERATIONS.remove, { id: made });
    await send('delete-again', OPERATIONS.remove, { id: made });
    await send('join', OPERATIONS.join);
  });
  afterAll(() => stack.close());

  it('the sequence answered as expected', () => {
    expect(refusal.length).toBeGreaterThan(10);
    expect(dataOf<{ __typename: string }>(answers.get('delete-again') as never, 'deleteEndpoint')).toEqual({
      __typename: 'NotFoundError',
    });
    expect(stack.sandbox.calls()).toBe(9);
  });

  it('counts each upstream call by route, method and status', async () => {
    const text = await scrape(stack.url);
    const calls = (route: string, method: string, status: string) =>
      sample(text, 'gateway_upstream_requests_total', { route, method, status });
    // endpoints, endpoint(id) (one filtered list) and the join's batch.
    expect(calls('listEndpoints', 'GET', '200')).toBe(3);
    expect(calls('createEndpoint', 'POST', '201')).toBe(1);
    expect(calls('updateEndpoint', 'PATCH', '200')).toBe(1);
    expect(calls('updateEndpoint', 'PATCH', '400')).toBe(1);
    expect(calls('deleteEndpoint', 'DELETE', '204')).toBe(1);
    expect(calls('deleteEndpoint', 'DELETE', '404')).toBe(1);
    expect(calls('listTunnels', 'GET', '200')).toBe(1);
    // endpoint(id) and Ref.node read through the batched list, never GET /endpoints/{id}.
    expect(text).not.toMatch(/route="getEndpoint"/);
    for (const [route, count] of [
      ['listEndpoints', 3],
      ['createEndpoint', 1],
      ['updateEndpoint', 2],
      ['deleteEndpoint', 2],
    ] as const) {
      const method = {
        listEndpoints: 'GET',
        createEndpoint: 'POST',
        updateEndpoint: 'PATCH',
        deleteEndpoint: 'DELETE',
      }[route];
      expect(sample(text, 'gateway_upstream_request_duration_seconds_count', { route, method })).toBe(count);
    }
    // The 400 is counted as the error it became; the 404 is an answer (NotFoundError), not an error.
    expect(text.match(/^gateway_upstream_errors_total\{.*$/gm)).toEqual([
      'gateway_upstream_errors_total{route="updateEndpoint",code="BAD_USER_INPUT"} 1',
    ]);
    expect(
      sample(text, 'graphql_envelop_request', { operationName: 'Update', operationType: 'mutation' }),
    ).toBe(2);
    expect(sample(text, 'graphql_envelop_request', { operationName: 'Joined', operationType: 'query' })).toBe(
      1,
    );
  });

  it('writes one line per operation with its name, type, upstream calls and budget standing', () => {
    const lineOf = (reqId: string) => {
      const found = stack.lines().filter((l) => l.msg === 'request' && l.reqId === reqId);
      expect(found).toHaveLength(1);
      return found[0];
    };
    // The calls left in the window of 100 count down by every call made, reads' and writes' alike.
    const expected: [string, string, string, number, number][] = [
      ['list', 'EndpointsPage', 'query', 1, 99],
      ['by-id', 'OneEndpoint', 'query', 1, 98],
      ['create', 'Create', 'mutation', 1, 97],
      ['update', 'Update', 'mutation', 1, 96],
      ['update-agent', 'Update', 'mutation', 1, 95],
      ['delete', 'Remove', 'mutation', 1, 94],
      ['delete-again', 'Remove', 'mutation', 1, 93],
      ['join', 'Joined', 'query', 2, 91],
    ];
    for (const [reqId, operationName, operationType, calls, remaining] of expected) {
      expect(lineOf(reqId)).toEqual({
        level: 30,
        time: expect.any(Number),
        service: 'ngrok-graphql-gateway',
        reqId,
        method: 'POST',
        path: '/graphql',
        operationName,
        operationType,
        status: 200,
        durationMs: expect.any(Number),
        upstream: {
          calls,
          coalesced: 0,
          cached: 0,
          retries: 0,
          predicted: calls,
          made: calls,
          budget: { limit: 100, remaining },
        },
        outcome: 'ok',
        msg: 'request',
      });
    }
  });

  it('no key, endpoint data or upstream text in any log line or metric', async () => {
    const everything = [...stack.logs, await scrape(stack.url)].join('\n');
    expect(stack.logs.length).toBeGreaterThan(8);
    const upstreamTexts = [refusal, 'Resource not found', 'operation_id', 'status_code'];
    const data = [
      URL_MADE,
      'observed-endpoint',
      POLICY,
      'on_http_request',
      'described-by-the-observability-test',
      agentEndpoint,
      made,
    ];
    for (const secret of [KEY, `Bearer ${KEY}`, ...upstreamTexts, ...data]) {
      expect(everything).not.toContain(secret);
    }
    // The upstream's operation ids (op_…) stay out too.
    expect(everything).not.toMatch(/\bop_[A-Za-z0-9]{8,}/);
  });
});
