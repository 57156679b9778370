// Path injection: every id and cursor is checked before use, so no hostile value reaches an
// upstream URL. Each is refused with a clear error (or InvalidInputError as mutation data), and the
// stand-in sees no request at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { oneRouteAccount } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(2, { seed: 9 });
const { edge, route, backend, seed } = oneRouteAccount(tunnels);

const HOSTILE = [
  '../',
  '../../tunnels',
  'tn_abc/../../edges',
  '..%2F..%2Ftunnels',
  'tn_abc%2F..',
  'tn_abc?limit=1',
  'tn_abc#fragment',
  'tn_abc;x',
  'tn_äbc',
  'tn_abc\u202e',
  'tn_abc\u0000',
  'tn_abc\n',
  ' tn_abc',
  '',
  `tn_${'a'.repeat(10_240)}`,
  'edghts_../tn_x',
  'bkdtg_%2e%2e',
];

type Answer = { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] };

/** Queries: a BAD_USER_INPUT error. */
const refusedAsError = (body: Answer) =>
  body.errors?.length === 1 && body.errors[0]?.extensions?.code === 'BAD_USER_INPUT';

describe('hostile ids and cursors never reach the upstream', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({ sandbox: { edgesWritable: true }, accounts: { [KEY]: seed } });
  });
  afterAll(() => h.close());

  const queries: [string, string, (v: string) => Record<string, unknown>][] = [
    ['tunnel(id)', 'query($v: ID!) { tunnel(id: $v) { id } }', (v) => ({ v })],
    ['node(id)', 'query($v: ID!) { node(id: $v) { id } }', (v) => ({ v })],
    ['nodes(ids)', 'query($v: ID!) { nodes(ids: [$v]) { id } }', (v) => ({ v })],
    [
      'httpsEdgeRouteBackend(edgeId)',
      'query($v: ID!, $r: ID!) { httpsEdgeRouteBackend(edgeId: $v, routeId: $r) { enabled } }',
      (v) => ({ v, r: route }),
    ],
    [
      'httpsEdgeRouteBackend(routeId)',
      'query($v: ID!, $e: ID!) { httpsEdgeRouteBackend(edgeId: $e, routeId: $v) { enabled } }',
      (v) => ({ v, e: edge }),
    ],
    ['tunnels(after)', 'query($v: String!) { tunnels(after: $v) { nodes { id } } }', (v) => ({ v })],
  ];
  for (const [name, query, variables] of queries) {
    it(`${name}: BAD_USER_INPUT for each hostile value`, async () => {
      h.sandbox.resetCalls();
      for (const value of HOSTILE) {
        const { body } = await h.gql(query, variables(value));
        expect(refusedAsError(body), `${name} ${JSON.stringify(value.slice(0, 30))}`).toBe(true);
      }
      expect(h.sandbox.calls()).toBe(0);
    });
  }

  const REPLACE = `mutation($input: ReplaceHttpsEdgeRouteBackendInput!) {
    replaceHttpsEdgeRouteBackend(input: $input) { __typename ... on InvalidInputError { field } }
  }`;
  const DELETE = `mutation($input: DeleteHttpsEdgeRouteBackendInput!) {
    deleteHttpsEdgeRouteBackend(input: $input) { __typename ... on InvalidInputError { field } }
  }`;
  const mutations: [string, string, string, (v: string) => Record<string, string>][] = [
    ['replace: edgeId', REPLACE, 'edgeId', (v) => ({ edgeId: v, routeId: route, backendId: backend })],
    ['replace: routeId', REPLACE, 'routeId', (v) => ({ edgeId: edge, routeId: v, backendId: backend })],
    ['replace: backendId', REPLACE, 'backendId', (v) => ({ edgeId: edge, routeId: route, backendId: v })],
    ['delete: edgeId', DELETE, 'edgeId', (v) => ({ edgeId: v, routeId: route })],
    ['delete: routeId', DELETE, 'routeId', (v) => ({ edgeId: edge, routeId: v })],
  ];
  for (const [name, mutation, field, input] of mutations) {
    it(`${name}: InvalidInputError naming the field, for each hostile value`, async () => {
      h.sandbox.resetCalls();
      for (const value of HOSTILE) {
        const { body } = await h.gql(mutation, { input: input(value) });
        const result = Object.values(body.data ?? {})[0];
        expect(result, `${name} ${JSON.stringify(value.slice(0, 30))}`).toEqual({
          __typename: 'InvalidInputError',
          field,
        });
      }
      expect(h.sandbox.calls()).toBe(0);
      expect(h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId).toBe(backend);
    });
  }

  it('the error message quotes a hostile value shortened, never in full', async () => {
    const long = `tn_${'a'.repeat(10_240)}`;
    const { body } = await h.gql('query($v: ID!) { node(id: $v) { id } }', { v: long });
    expect(JSON.stringify(body).length).toBeLessThan(1_000);
  });
});
